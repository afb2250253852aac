import * as vscode from 'vscode';

/** An agent touching the same place again within this time does not take the editor there again. */
const REPEAT_MS = 2000;

/**
 * `howdah.followAgent`: the file the agent changes is shown where it works, in a preview editor that leaves the focus
 * where it was (the user may be typing elsewhere).
 */
export class FollowAgent {
  private last = { key: '', at: 0 };

  /** An arrow: the tracker and the writes take it as their `follow` callback. */
  readonly reveal = (fsPath: string, line?: number): void => {
    if (!vscode.workspace.getConfiguration('howdah').get<boolean>('followAgent', false)) return;
    const key = `${fsPath}:${line ?? ''}`;
    if (this.last.key === key && Date.now() - this.last.at < REPEAT_MS) return;
    this.last = { key, at: Date.now() };
    const selection = line === undefined ? undefined : new vscode.Range(line, 0, line, 0);
    void vscode.window.showTextDocument(vscode.Uri.file(fsPath), { preview: true, preserveFocus: true, selection }).then(undefined, () => undefined);
  };
}
