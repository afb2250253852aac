import * as vscode from 'vscode';

const REMEMBERED_LINES = 2000;

/**
 * The agent's log: a `LogOutputChannel` named "Howdah: <agent>" holding its stderr, our lifecycle messages and the
 * protocol trace; the last lines are also kept in memory for error messages and the test API.
 */
export class AgentLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly recent: string[] = [];

  constructor(agentName: string) {
    this.channel = vscode.window.createOutputChannel(vscode.l10n.t('Howdah: {0}', agentName), { log: true });
  }

  stderr(line: string): void {
    this.remember(line);
    this.channel.info(`[stderr] ${line}`);
  }

  info(message: string): void {
    this.remember(message);
    this.channel.info(message);
  }

  warn(message: string): void {
    this.remember(message);
    this.channel.warn(message);
  }

  error(message: string): void {
    this.remember(message);
    this.channel.error(message);
  }

  /** Protocol trace lines, written at info level so they show whatever the channel's log level. */
  trace(line: string): void {
    this.channel.info(line);
  }

  show(): void {
    this.channel.show(true);
  }

  lines(): string[] {
    return [...this.recent];
  }

  dispose(): void {
    this.channel.dispose();
  }

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > REMEMBERED_LINES) this.recent.splice(0, this.recent.length - REMEMBERED_LINES);
  }
}
