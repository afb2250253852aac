import * as vscode from 'vscode';
import { displayPath, type PendingChange, type PendingChanges } from './pendingChanges';
import type { Proposals } from './proposals';

/**
 * Proposals are pending changes too: listed with the reviews (the Agent Changes list, the status), each with its
 * added and removed line counts, kept current as proposals come, change and settle.
 */
export class ProposalCounts implements vscode.Disposable {
  private counts = new Map<number, PendingChange>();
  private readonly changed = new vscode.EventEmitter<void>();
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly proposals: Proposals,
    pending: PendingChanges,
  ) {
    this.subscriptions = [
      pending.setExtras({ list: () => [...this.counts.values()], onDidChange: this.changed.event }),
      proposals.onDidChangeProposals(() => void this.recount()),
    ];
  }

  private async recount(): Promise<void> {
    // Counting awaits each comparison; a newer recount (a proposal decided meanwhile) wins, or a finished proposal
    // would be put back in the list by the older one and stay there as a stale "+0 −0" row.
    const generation = ++this.generation;
    const counts = new Map<number, PendingChange>();
    for (const p of this.proposals.list()) {
      const c = await this.proposals.compare(p);
      if (generation !== this.generation) return;
      const added = c.hunks.reduce((n, h) => n + h.curEnd - h.curStart, 0);
      const removed = c.hunks.reduce((n, h) => n + h.baseEnd - h.baseStart, 0);
      counts.set(p.id, { uri: p.uri, path: displayPath(p.path), added, removed, kind: c.exists ? 'modified' : 'created' });
    }
    this.counts = counts;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
