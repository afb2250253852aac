import * as vscode from 'vscode';
import { toTerminalNewlines } from '../shared/ansi';
import type { ExitStatus } from './processTree';
import type { ReplaySource } from './terminalOutputModel';

/**
 * A read-only VS Code terminal that shows a command's output: it replays what was printed so far (colours kept),
 * then follows. Typing does nothing but Ctrl+C, which asks before it stops the command (only for commands we
 * started; the agent's own commands are not ours to stop). Closing the view does not stop the command: it is the
 * agent's, and "Open in terminal" brings the view back.
 */

/** Output is written in batches: at most one write per frame, and at most this much per batch. */
const FLUSH_MS = 16;
const MAX_BATCH_CHARS = 256 * 1024;

export interface TerminalViewOptions {
  source: ReplaySource;
  /** The line shown above the output (the command, its folder). */
  header: string;
  /** Asks the user before Ctrl+C stops the command. */
  confirmKill(title: string): Thenable<boolean>;
  /** Show it now (without taking focus). */
  reveal: boolean;
}

export function openTerminalView(options: TerminalViewOptions): vscode.Terminal {
  const pty = new ReadOnlyPty(options);
  const terminal = vscode.window.createTerminal({
    name: terminalName(options.source.title),
    pty,
    iconPath: new vscode.ThemeIcon('hubot'),
    isTransient: true,
  });
  if (options.reveal) terminal.show(true);
  return terminal;
}

function terminalName(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || vscode.l10n.t('Command');
}

class ReadOnlyPty implements vscode.Pseudoterminal {
  private readonly writer = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writer.event;
  private following: vscode.Disposable | undefined;
  private pending: string[] = [];
  private pendingChars = 0;
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;
  private endedWithCr = false;
  private hinted = false;
  private asking = false;
  private closed = false;

  constructor(private readonly options: TerminalViewOptions) {}

  /** Writes before `open` are lost, so the replay starts here. */
  open(): void {
    const { source } = this.options;
    this.writer.fire(`\x1b[2m${this.options.header}\x1b[0m\r\n`);
    const history = source.replay();
    if (history) this.write(history);
    this.flush();
    if (!source.running()) {
      this.writeExit(source.exitStatus());
      return;
    }
    this.following = source.follow(
      (text) => this.queue(text),
      (status) => {
        this.flush();
        this.writeExit(status);
      },
    );
  }

  close(): void {
    this.closed = true;
    this.following?.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.writer.dispose();
  }

  handleInput(data: string): void {
    const { source } = this.options;
    if (data.includes('\x03') && source.running() && source.kill) {
      if (this.asking) return;
      this.asking = true;
      void Promise.resolve(this.options.confirmKill(source.title))
        .then(async (yes) => {
          if (yes && source.kill) {
            this.writer.fire('\r\n\x1b[33mStopping…\x1b[0m\r\n');
            await source.kill();
          }
        })
        .finally(() => (this.asking = false));
      return;
    }
    if (!this.hinted && !this.closed) {
      this.hinted = true;
      const hint = source.running() && source.kill ? vscode.l10n.t('Read-only: the agent runs this command. Ctrl+C stops it.') : vscode.l10n.t('Read-only: this terminal shows a command the agent ran.');
      this.writer.fire(`\r\n\x1b[2m${hint}\x1b[0m\r\n`);
    }
  }

  private queue(text: string): void {
    if (this.closed) return;
    if (this.pendingChars + text.length > MAX_BATCH_CHARS) {
      // More than a terminal can show in a frame: keep the newest output, count what was skipped.
      this.skipped += this.pendingChars;
      this.pending = [];
      this.pendingChars = 0;
      if (text.length > MAX_BATCH_CHARS) {
        this.skipped += text.length - MAX_BATCH_CHARS;
        text = text.slice(text.length - MAX_BATCH_CHARS);
      }
    }
    this.pending.push(text);
    this.pendingChars += text.length;
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    if (this.skipped) {
      this.writer.fire('\r\n\x1b[2m' + vscode.l10n.t('… {0} characters not shown …', this.skipped) + '\x1b[0m\r\n');
      this.skipped = 0;
      this.endedWithCr = false;
    }
    if (this.pending.length) this.write(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }

  private write(text: string): void {
    this.writer.fire(toTerminalNewlines(text, this.endedWithCr));
    this.endedWithCr = text.endsWith('\r');
  }

  private writeExit(status: ExitStatus | undefined): void {
    if (this.closed) return;
    const how = !status
      ? 'finished'
      : status.signal
        ? vscode.l10n.t('stopped by {0}', status.signal)
        : vscode.l10n.t('exited with code {0}', String(status.exitCode));
    const colour = status && status.exitCode === 0 && !status.signal ? '32' : '33';
    this.writer.fire(`\r\n\x1b[${colour}m[${how}]\x1b[0m\r\n`);
  }
}
