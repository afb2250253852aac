import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import type { HostMessage, PatchMessage } from '../../../src/shared/protocol';
import { DELIVERY_TIMEOUT_MS, SessionProjector, type FlushTimer } from '../../../src/panel/sessionProjector';
import { SessionState } from '../../../src/session/sessionState';
import { FILL_CHARS, FLOOD_CHARS } from '../../../src/panel/floodGaps';
import { PageText } from '../support/pageText';
import { READY_HEADER as header } from '../support/views';

/** Timers the test runs by hand, each with its delay (the flush interval, the delivery timeout). */
class ManualTimers implements FlushTimer {
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  set(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { callback, ms });
    return handle;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Runs the timers of delay `ms` that are set now. */
  fire(ms: number): void {
    for (const [handle, timer] of [...this.pending]) {
      if (timer.ms !== ms) continue;
      this.pending.delete(handle);
      timer.callback();
    }
  }
}

const FLUSH = 17;

/** A page whose deliveries settle when the test says: `post` returns a promise per message, as VS Code's does. */
function setup() {
  const state = new SessionState();
  const posts: HostMessage[] = [];
  const deliveries: Array<(delivered: boolean) => void> = [];
  const timers = new ManualTimers();
  const post = (message: HostMessage) => {
    posts.push(message);
    return new Promise<boolean>((resolve) => deliveries.push(resolve));
  };
  const projector = new SessionProjector(3, state, { get: () => undefined }, () => header, post, timers, FLUSH);
  const chunk = (text: string) => state.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
  const patches = () => posts.filter((p): p is PatchMessage => p.type === 'patch');
  const text = () => patches().flatMap((p) => p.ops).map((o) => (o.op === 'append' ? o.delta : o.op === 'entry' && o.entry.kind === 'agent' ? o.entry.text : '')).join('');
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  /** A chunk, then the flush interval passes. */
  const step = (piece: string) => {
    chunk(piece);
    timers.fire(FLUSH);
  };
  return { state, posts, deliveries, timers, projector, chunk, step, patches, text, settled };
}

describe('panel session projector: one patch on its way at a time', () => {
  it('holds changes while a patch is on its way and sends them as one patch once it is delivered', async () => {
    const { projector, patches, deliveries, text, settled, step } = setup();
    projector.snapshot();
    step('a');
    assert.equal(patches().length, 1);
    for (const piece of ['b', 'c', 'd']) step(piece);
    assert.equal(patches().length, 1, 'nothing more goes while the first patch is on its way');
    deliveries[0](true);
    await settled();
    assert.equal(patches().length, 2, 'the held changes go at once when it arrives');
    assert.deepEqual(patches()[1].ops, [{ op: 'append', index: 0, offset: 1, delta: 'bcd' }]);
    assert.equal(text(), 'abcd');
  });

  it('sends nothing on delivery when nothing changed meanwhile', async () => {
    const { projector, patches, deliveries, settled, step } = setup();
    projector.snapshot();
    step('a');
    deliveries[0](true);
    await settled();
    assert.equal(patches().length, 1);
    step('b');
    assert.equal(patches().length, 2, 'a change after the delivery goes on the next interval');
  });

  it("sends the end of a turn at once, even with a patch on its way", () => {
    const { projector, chunk, patches, state, text, step } = setup();
    projector.snapshot();
    state.beginTurn();
    step('a');
    step('b');
    assert.equal(patches().length, 1);
    chunk('c');
    state.endTurn('end_turn');
    assert.equal(patches().length, 2, 'the turn-end flush does not wait');
    assert.equal(text(), 'abc');
  });

  it('a delivery that never settles holds the next patch back for DELIVERY_TIMEOUT_MS only', () => {
    const { projector, timers, patches, text, step } = setup();
    projector.snapshot();
    step('a');
    step('b');
    assert.equal(patches().length, 1);
    timers.fire(DELIVERY_TIMEOUT_MS);
    assert.equal(patches().length, 2, 'given up on, the held changes go');
    assert.equal(text(), 'ab');
  });

  it('a failed delivery (the page gone) lets the next patch go too', async () => {
    const timers = new ManualTimers();
    const rejects: Array<(error: Error) => void> = [];
    const post = () => new Promise((_, reject) => rejects.push(reject));
    const projector = new SessionProjector(4, undefined, { get: () => undefined }, () => header, post, timers, FLUSH);
    projector.headerChanged();
    timers.fire(FLUSH);
    projector.headerChanged();
    timers.fire(FLUSH);
    assert.equal(rejects.length, 1);
    rejects[0](new Error('webview disposed'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(rejects.length, 2);
    projector.dispose();
  });

  it('a late delivery of a patch given up on does not release the patch after it', async () => {
    const { projector, timers, patches, deliveries, settled, step } = setup();
    projector.snapshot();
    step('a');
    step('b');
    timers.fire(DELIVERY_TIMEOUT_MS);
    assert.equal(patches().length, 2);
    step('c');
    deliveries[0](true);
    await settled();
    assert.equal(patches().length, 2, 'the first delivery settling late says nothing about the second');
    deliveries[1](true);
    await settled();
    assert.equal(patches().length, 3);
  });

  it('disposed with a flush held, sends nothing when the delivery settles', async () => {
    const { projector, timers, patches, deliveries, settled, step } = setup();
    projector.snapshot();
    step('a');
    step('b');
    projector.dispose();
    deliveries[0](true);
    await settled();
    timers.fire(DELIVERY_TIMEOUT_MS);
    assert.equal(patches().length, 1);
  });

  it('sends an answer that floods in while a patch is on its way as its newest text first, then the rest, until the page holds all of it', async () => {
    const { projector, patches, deliveries, settled, state, step, chunk, timers } = setup();
    projector.snapshot();
    state.beginTurn();
    step('Start.\n\n');
    const paragraph = (i: number) => `Paragraph ${i} says something about the answer.\n\n`;
    for (let i = 0; i < 4000; i++) step(paragraph(i));
    assert.equal(patches().length, 1, 'held while the first is on its way');
    deliveries[0](true);
    await settled();
    const flood = patches()[1].ops;
    assert.equal(flood.length, 1);
    assert.ok(flood[0].op === 'append' && flood[0].skip !== undefined && flood[0].delta.length < FLOOD_CHARS, 'the newest text, skipping the rest');
    chunk('The end.\n');
    state.endTurn('end_turn');
    const end = patches()[2].ops;
    assert.ok(end.some((op) => op.op === 'append' && op.delta === 'The end.\n'), 'the end of the turn goes at once');
    assert.ok(!end.some((op) => op.op === 'fill'), 'alone');
    for (let i = 1; i < 40 && deliveries[i]; i++) {
      deliveries[i](true);
      await settled();
      timers.fire(FLUSH);
    }
    const page = new PageText(0);
    for (const patch of patches()) for (const op of patch.ops) page.apply(op);
    assert.equal(page.gap, undefined, 'the gap closed');
    const whole = state.entries[0].kind === 'message' ? state.entries[0].text : '';
    assert.equal(page.text, whole);
    const fills = patches().map((p) => p.ops.reduce((n, op) => n + (op.op === 'fill' ? op.delta.length : 0), 0));
    assert.ok(fills.filter((n) => n > 0).length > 1 && fills.every((n) => n <= FILL_CHARS), `the skipped text came in bounded fills: ${fills.join(' ')}`);
  });
});
