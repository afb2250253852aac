import { PassThrough } from 'node:stream';

/**
 * An in-memory peer for the JSON-RPC layer: `toUs` is what the peer writes (our input), `fromUs` what we write. Lets
 * tests send arbitrary bytes (split chunks, malformed lines) and read our answers line by line.
 */
export class MemoryPeer {
  readonly toUs = new PassThrough();
  readonly fromUs = new PassThrough();
  private buffered = '';
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];

  constructor() {
    this.fromUs.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        this.lines.push(this.buffered.slice(0, nl));
        this.buffered = this.buffered.slice(nl + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  send(message: unknown): void {
    this.toUs.write(JSON.stringify(message) + '\n');
  }

  raw(bytes: string | Buffer): void {
    this.toUs.write(bytes);
  }

  /** The next message we wrote, parsed. */
  async next(timeoutMs = 2000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (Date.now() > deadline) throw new Error('No message from us within the timeout');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return JSON.parse(this.lines.shift()!);
  }

  /** Messages we wrote that were not read yet. */
  drain(): Record<string, unknown>[] {
    return this.lines.splice(0).map((l) => JSON.parse(l));
  }
}

export const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
