import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PendingChanges } from './pendingChanges';
import { setResourcesContext } from './resourceContext';

export const ROUND_SCHEME = 'howdah-round';

/**
 * Review rounds: when review comments go to the agent, each commented file's text at that moment is kept as the
 * round's start, so the next look shows what the agent changed in answer (round start → now) next to the whole
 * change (baseline → now). A file leaves its round when it leaves the review (all accepted or rejected). Kept for
 * the window: the whole change, which is what Accept and Reject act on, is kept across reloads by the review itself.
 */
export class ReviewRounds implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly starts = new Map<string, { text: string; at: Date }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A round started or ended for some file. */
  readonly onDidChangeRounds = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(pending: PendingChanges) {
    this.subscription = pending.onDidChange(() => {
      const gone = [...this.starts.keys()].filter((fsPath) => !pending.has(fsPath));
      for (const fsPath of gone) this.starts.delete(fsPath);
      if (gone.length > 0) this.update();
    });
    void this.updateContext();
  }

  /** A round starts for these files, from their text now. */
  start(files: ReadonlyMap<string, string>): void {
    const at = new Date();
    for (const [fsPath, text] of files) this.starts.set(fsPath, { text, at });
    this.update();
  }

  has(fsPath: string): boolean {
    return this.starts.has(fsPath);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.starts.get(uri.with({ scheme: 'file', query: '' }).fsPath)?.text ?? '';
  }

  /** The diff of what changed since the file's round started; false when it has none. */
  async open(fsPath: string): Promise<boolean> {
    const start = this.starts.get(fsPath);
    if (!start) return false;
    const left = vscode.Uri.file(fsPath).with({ scheme: ROUND_SCHEME, query: String(start.at.getTime()) });
    const title = vscode.l10n.t('{0} (Since your review at {1})', path.basename(fsPath), start.at.toLocaleTimeString());
    await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(fsPath), title, { preview: false });
    return true;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private update(): void {
    this.changed.fire();
    void this.updateContext();
  }

  /** `resource in howdah.roundResources` shows "Changes Since Review" on the file's editors. */
  private async updateContext(): Promise<void> {
    await setResourcesContext('howdah.roundResources', [...this.starts.keys()].map((fsPath) => vscode.Uri.file(fsPath)));
  }
}
