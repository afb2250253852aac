import type * as vscode from 'vscode';
import type { EditsStorage } from './editsStorage';
import type { Proposals } from './proposals';

/**
 * Held writes (an agent's write over a buffer with unsaved changes of the user's) are pending changes too, so they
 * survive a reload: kept in the persisted state while they wait, proposed again when the layer starts.
 */
export class HeldWrites implements vscode.Disposable {
  /** Until the saved ones are proposed again, the proposals list is not the whole truth: it must not overwrite them. */
  private restoring = true;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly proposals: Proposals,
    private readonly storage: EditsStorage,
  ) {
    this.subscription = proposals.onDidChangeProposals(() => this.keep());
    void this.restore();
  }

  private async restore(): Promise<void> {
    const { state, blobs } = this.storage;
    for (const [path, h] of [...state.held]) {
      const text = await blobs.get(h.text);
      const original = h.original === null ? null : await blobs.get(h.original);
      if (text === undefined || original === undefined) continue;
      void this.proposals.propose(path, h.session, 'held', Buffer.from(text).toString('utf8'), original && Buffer.from(original).toString('utf8'), undefined, false);
    }
    this.restoring = false;
    this.keep();
  }

  private keep(): void {
    if (this.restoring) return;
    const { state, blobs } = this.storage;
    state.held.clear();
    for (const p of this.proposals.list()) {
      if (p.mode !== 'held') continue;
      const original = p.original === null ? null : blobs.put(Buffer.from(p.original, 'utf8'));
      state.held.set(p.path, { session: p.session, text: blobs.put(Buffer.from(p.text, 'utf8')), original });
    }
    this.storage.persist();
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
