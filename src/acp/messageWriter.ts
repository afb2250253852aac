import type { Writable } from 'node:stream';
import * as l10n from '@vscode/l10n';

/**
 * Serialises outgoing messages onto a stream: each message is one `write` of one line, so two messages never
 * interleave, and when the stream signals back-pressure the queue waits for 'drain' instead of buffering without bound
 * inside the stream.
 */
export class MessageWriter {
  private readonly queue: { line: string; done: (error?: Error) => void }[] = [];
  private waitingForDrain = false;
  private closed: Error | undefined;

  constructor(private readonly stream: Writable) {
    stream.on('drain', () => {
      this.waitingForDrain = false;
      this.flush();
    });
    stream.on('error', (error) => this.fail(error));
    stream.on('close', () => this.fail(new Error(l10n.t('The agent closed its input'))));
  }

  /** Queues one message; resolves once the stream accepted it. */
  write(line: string): Promise<void> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      this.queue.push({ line, done: (error) => (error ? reject(error) : resolve()) });
      this.flush();
    });
  }

  /** Messages queued but not yet handed to the stream. */
  get backlog(): number {
    return this.queue.length;
  }

  private flush(): void {
    while (!this.waitingForDrain && this.queue.length > 0 && !this.closed) {
      const next = this.queue.shift()!;
      let accepted: boolean;
      try {
        accepted = this.stream.write(next.line + '\n');
      } catch (error) {
        next.done(error as Error);
        this.fail(error as Error);
        return;
      }
      next.done();
      if (!accepted) this.waitingForDrain = true;
    }
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.closed = error;
    for (const item of this.queue.splice(0)) item.done(error);
  }
}
