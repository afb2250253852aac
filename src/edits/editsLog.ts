import * as vscode from 'vscode';

/** Enough of the recent past to explain a failed integration test, not a second log. */
const RECENT_LINES = 100;

/**
 * The "Howdah: Edits" output channel, and its last lines kept in memory: the integration tests read them
 * (`howdah.edits.test.state`) to say what the tracker saw when an assertion fails.
 */
export class EditsLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel(vscode.l10n.t('Howdah: Edits'), { log: true });
  private readonly lines: string[] = [];

  /** What the tracker and the snapshots found. An arrow: the parts take it as their `log` callback. */
  readonly note = (line: string): void => {
    this.channel.info(line);
    this.lines.push(line);
    if (this.lines.length > RECENT_LINES) this.lines.shift();
  };

  /** A failure of our own (a save), for the channel only. */
  readonly error = (line: string): void => this.channel.error(line);

  recent(): readonly string[] {
    return this.lines;
  }

  dispose(): void {
    this.channel.dispose();
  }
}
