import { strict as assert } from 'node:assert';
import type { EntryView, PatchOp } from '../../../src/shared/protocol';
import { TranscriptStore } from '../../../webview/store';
import { READY_HEADER } from './views';

/**
 * What the page holds of message `index`, as the page's own store (webview/store.ts) takes the host's ops: its text,
 * and the gap of an answer flooding in. An op the page would not accept (it would ask for a snapshot) fails the test.
 */
export class PageText {
  private readonly store = new TranscriptStore();

  constructor(private readonly index = 1) {
    const entries: EntryView[] = Array.from({ length: index + 1 }, (_, i) => ({ kind: 'agent', id: i + 1, text: '', blocks: [] }));
    this.store.apply({ type: 'snapshot', epoch: 1, header: READY_HEADER, entries, plan: [], commands: [], turn: 'running', queue: [] });
  }

  get text(): string {
    const entry = this.store.entry(this.index);
    return entry && 'text' in entry ? entry.text : '';
  }

  get gap(): { readonly skip: number; readonly newest: string } | undefined {
    return this.store.gap(this.index);
  }

  apply(op: PatchOp): void {
    const described = JSON.stringify({ ...op, delta: 'delta' in op ? `${op.delta.length} characters` : undefined });
    assert.equal(this.store.apply({ type: 'patch', epoch: 1, ops: [op] }), 'applied', `the page takes ${described}`);
  }
}
