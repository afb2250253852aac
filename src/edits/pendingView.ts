import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PendingChange, PendingChanges } from './pendingChanges';
import type { ReviewRounds } from './reviewRounds';

export const PENDING_VIEW_ID = 'howdah.pendingChanges';

/**
 * A native list of the pending changes (next to the chat in the Howdah container): one row per file with its +/-
 * counts, click for the diff, inline Accept and Reject, Accept all / Reject all in the title, and the count on the
 * view's badge. The chat panel renders the same model its own way.
 */
export class PendingView implements vscode.TreeDataProvider<PendingChange>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<PendingChange>;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly pending: PendingChanges,
    private readonly rounds?: ReviewRounds,
  ) {
    this.view = vscode.window.createTreeView(PENDING_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
    this.subscription = vscode.Disposable.from(pending.onDidChange(() => this.update()), ...(rounds ? [rounds.onDidChangeRounds(() => this.changed.fire())] : []));
    this.update();
  }

  getChildren(element?: PendingChange): PendingChange[] {
    return element ? [] : this.pending.list();
  }

  getTreeItem(change: PendingChange): vscode.TreeItem {
    const item = new vscode.TreeItem(path.basename(change.path), vscode.TreeItemCollapsibleState.None);
    const dir = path.dirname(change.path);
    const counts = describeCounts(change);
    item.description = `${dir === '.' ? '' : `${dir}  `}${counts}`;
    item.resourceUri = change.uri.with({ scheme: 'file', query: '' });
    item.tooltip = change.opaque && !change.opaque.restorable
      ? vscode.l10n.t('{0} — {1}. Howdah cannot restore it: Open shows the file, Accept takes it off this list.', change.path, counts)
      : `${change.path} — ${counts}`;
    // An unrecorded change has no Reject (package.json's menus): there is nothing exact to go back to.
    // A file in a review round also offers Changes Since Review.
    item.contextValue = change.opaque && !change.opaque.restorable ? 'howdah.unrecorded' : change.uri.scheme !== 'file' ? 'howdah.proposal' : this.rounds?.has(change.uri.fsPath) ? 'howdah.change.round' : 'howdah.change';
    item.command = { command: 'howdah.openChanges', title: vscode.l10n.t('Open Changes'), arguments: [change.uri] };
    return item;
  }

  private update(): void {
    const count = this.pending.count;
    this.view.badge = count > 0 ? { value: count, tooltip: count === 1 ? vscode.l10n.t('1 file changed by the agent, to review') : vscode.l10n.t('{0} files changed by the agent, to review', count) } : undefined;
    this.view.message = count === 0 ? vscode.l10n.t('No agent changes to review.') : undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.view.dispose();
    this.changed.dispose();
  }
}

/** "+3 −1", "new, +12", "deleted", or for a change with no text diff "changed — original not recorded (why)". */
function describeCounts(change: PendingChange): string {
  const why = change.opaque?.why;
  switch (change.kind) {
    case 'created':
      return why !== undefined ? vscode.l10n.t('created — {0}', why) : vscode.l10n.t('new, +{0}', change.added);
    case 'deleted':
      return why !== undefined ? vscode.l10n.t('deleted — {0}', why) : vscode.l10n.t('deleted');
    default:
      return why !== undefined ? vscode.l10n.t('changed — {0}', why) : `+${change.added} −${change.removed}`;
  }
}
