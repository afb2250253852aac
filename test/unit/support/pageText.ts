import { strict as assert } from 'node:assert';
import type { PatchOp } from '../../../src/shared/protocol';

/** What the page holds of one message, applying text ops as webview/store.ts does: its text, a gap, the newest text. */
export class PageText {
  text = '';
  gap: { skip: number; newest: string } | undefined;

  apply(op: PatchOp): void {
    if (op.op === 'append') {
      if (op.skip !== undefined) {
        assert.equal(op.offset, this.text.length, 'a skip starts where the page’s own text ends');
        this.gap = { skip: op.skip, newest: op.delta };
      } else if (this.gap) {
        assert.equal(op.offset, this.text.length + this.gap.skip + this.gap.newest.length, 'an append follows the newest text');
        this.gap.newest += op.delta;
      } else {
        assert.equal(op.offset, this.text.length, 'an append follows the text');
        this.text += op.delta;
      }
    } else if (op.op === 'fill') {
      assert.ok(this.gap, 'a fill has a gap to fill');
      assert.equal(op.offset, this.text.length, 'a fill follows the page’s own text');
      assert.ok(op.delta.length <= this.gap.skip, 'a fill fits its gap');
      this.text += op.delta;
      this.gap.skip -= op.delta.length;
      if (this.gap.skip === 0) {
        this.text += this.gap.newest;
        this.gap = undefined;
      }
    }
  }
}

