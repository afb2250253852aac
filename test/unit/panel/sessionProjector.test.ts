import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import type { HostMessage, PatchMessage, PatchOp } from '../../../src/shared/protocol';
import { SessionProjector, type FlushTimer } from '../../../src/panel/sessionProjector';
import { SessionState } from '../../../src/session/sessionState';
import { READY_HEADER as header } from '../support/views';

/** A timer the test fires by hand: proves coalescing without waiting. */
class ManualTimer implements FlushTimer {
  pending: (() => void) | undefined;
  sets = 0;
  set(callback: () => void): unknown {
    this.sets++;
    this.pending = callback;
    return 1;
  }
  clear(): void {
    this.pending = undefined;
  }
  fire(): void {
    const callback = this.pending;
    this.pending = undefined;
    callback?.();
  }
}


function setup() {
  const state = new SessionState();
  const posts: HostMessage[] = [];
  const timer = new ManualTimer();
  const projector = new SessionProjector(7, state, { get: () => undefined }, () => header, (m) => posts.push(m), timer);
  const apply = (u: Record<string, unknown>) => state.apply(SessionUpdate.parse(u));
  const chunk = (text: string, kind = 'agent_message_chunk') => apply({ sessionUpdate: kind, content: { type: 'text', text } });
  const patches = () => posts.filter((p): p is PatchMessage => p.type === 'patch');
  const ops = () => patches().flatMap((p) => p.ops);
  return { state, posts, timer, projector, apply, chunk, patches, ops };
}

describe('panel session projector', () => {
  it('snapshots the whole state with its epoch', () => {
    const { projector, chunk, state } = setup();
    state.addUserMessage([{ type: 'text', text: 'hi' }]);
    chunk('Hello');
    const snapshot = projector.snapshot();
    assert.equal(snapshot.epoch, 7);
    assert.deepEqual(snapshot.entries.map((e) => e.kind), ['user', 'agent']);
    assert.equal(snapshot.turn, 'idle');
  });

  it('a long conversation is sent as its tail; older entries come on request, ending where the page begins', () => {
    const { projector, chunk, state, timer, ops } = setup();
    for (let i = 0; i < 500; i++) {
      state.addUserMessage([{ type: 'text', text: `q${i}` }]);
      chunk(`a${i}`);
      state.addTurnEnd('end_turn');
    }
    assert.equal(state.entries.length, 1500);
    const snapshot = projector.snapshot(100);
    assert.equal(snapshot.first, 1400);
    assert.equal(snapshot.entries.length, 100);
    assert.equal(snapshot.entries[0].kind, 'turn-end', 'entry 1400 ends turn 466');
    assert.equal((snapshot.entries[1] as { text?: string }).text, 'q467', 'entry 1401 asks question 467');
    const earlier = projector.earlier(1400, 80);
    assert.deepEqual([earlier.first, earlier.entries.length, earlier.epoch], [1320, 80, 7]);
    assert.equal((earlier.entries[79] as { text?: string }).text, 'a466', 'the last one (1399) is just before the page');
    assert.deepEqual([projector.earlier(30, 80).first, projector.earlier(30, 80).entries.length], [0, 30], 'stops at the start');
    // a message sent earlier keeps growing as deltas: the projector remembers what the page holds
    state.addUserMessage([{ type: 'text', text: 'next' }]);
    chunk('x');
    timer.fire();
    chunk('y');
    timer.fire();
    assert.deepEqual(ops().at(-1), { op: 'append', index: 1501, offset: 1, delta: 'y' });
  });

  it('a change to a message long past is sent whole (its delta bookkeeping is let go), a recent one as a delta', () => {
    const { projector, state, timer, ops, apply } = setup();
    projector.snapshot();
    const say = (messageId: string, text: string) => apply({ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } });
    say('m0', 'first');
    timer.fire();
    for (let i = 1; i < 600; i++) {
      state.addUserMessage([{ type: 'text', text: `q${i}` }]);
      say(`m${i}`, `a${i}`);
      timer.fire();
    }
    say('m599', '!');
    timer.fire();
    assert.deepEqual(ops().at(-1), { op: 'append', index: 1198, offset: 4, delta: '!' }, 'the newest message grows by deltas');
    say('m0', ' (amended)');
    timer.fire();
    const last = ops().at(-1) as { op: string; index: number; entry?: { text?: string } };
    assert.deepEqual([last.op, last.index, last.entry?.text], ['entry', 0, 'first (amended)'], 'the oldest is sent whole');
  });

  it('streams a long message as deltas joined from what the session reported, however the chunks fall between flushes', () => {
    const { projector, chunk, timer, ops, state } = setup();
    projector.snapshot();
    chunk('start');
    timer.fire();
    let expected = 'start';
    for (let round = 0; round < 50; round++) {
      for (let k = 0; k <= round % 4; k++) {
        chunk(`·${round}.${k}`);
        expected += `·${round}.${k}`;
      }
      timer.fire();
    }
    const appends = ops().filter((o): o is Extract<PatchOp, { op: 'append' }> => o.op === 'append');
    assert.equal(appends.length, 50);
    assert.equal('start' + appends.map((o) => o.delta).join(''), expected);
    assert.equal((state.entries[0] as { text: string }).text, expected);
    for (let i = 1; i < appends.length; i++) assert.equal(appends[i].offset, appends[i - 1].offset + appends[i - 1].delta.length);
  });

  it('a short conversation is sent whole', () => {
    const { projector, chunk } = setup();
    chunk('only');
    const snapshot = projector.snapshot();
    assert.deepEqual([snapshot.first, snapshot.entries.length], [0, 1]);
  });

  it('coalesces a burst of chunks into one patch per flush', () => {
    const { timer, chunk, patches, projector } = setup();
    projector.snapshot();
    for (let i = 0; i < 1_000; i++) chunk('x');
    assert.equal(timer.sets, 1, 'one timer for the whole burst');
    assert.equal(patches().length, 0, 'nothing posted before the timer fires');
    timer.fire();
    assert.equal(patches().length, 1);
  });

  it('sends a grown message as offset + delta, not the whole text', () => {
    const { timer, chunk, ops, projector } = setup();
    chunk('Hello');
    projector.snapshot();
    chunk(', wor');
    chunk('ld');
    timer.fire();
    assert.deepEqual(ops(), [{ op: 'append', index: 0, offset: 5, delta: ', world' }]);
    chunk('!');
    timer.fire();
    assert.deepEqual(ops()[1], { op: 'append', index: 0, offset: 12, delta: '!' });
  });

  it('sends a message that is new since the last flush whole', () => {
    const { timer, chunk, ops, projector } = setup();
    projector.snapshot();
    chunk('Hel');
    chunk('lo');
    timer.fire();
    assert.deepEqual(ops(), [{ op: 'entry', index: 0, entry: { kind: 'agent', id: 1, text: 'Hello', blocks: [] } }]);
  });

  it('sends nothing for a change that changed nothing it shows', () => {
    const { timer, ops, projector, state } = setup();
    state.addUserMessage([{ type: 'text', text: 'hi' }]);
    projector.snapshot();
    state.endTurn();
    timer.fire();
    assert.deepEqual(ops(), []);
  });

  it('replaces a message whose blocks changed, and a thought with blocks', () => {
    const { timer, chunk, apply, ops, projector } = setup();
    chunk('text');
    projector.snapshot();
    apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'AAAA' } });
    timer.fire();
    assert.equal(ops()[0].op, 'entry');
  });

  it('patches the tool call entry when its state changes, in entry order', () => {
    const { timer, apply, ops, projector, chunk } = setup();
    chunk('before');
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Read', kind: 'read', status: 'pending' });
    projector.snapshot();
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', status: 'completed' });
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc2', title: 'Edit', kind: 'edit', status: 'pending' });
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc2', status: 'in_progress' });
    timer.fire();
    const entryOps = ops().filter((o): o is Extract<PatchOp, { op: 'entry' }> => o.op === 'entry');
    assert.deepEqual(entryOps.map((o) => o.index), [1, 2]);
    assert.deepEqual(entryOps.map((o) => (o.entry.kind === 'tool' ? o.entry.tool.status : '')), ['completed', 'in_progress']);
  });

  it('sends header, plan, commands and turn when they change', () => {
    const { timer, apply, ops, projector, state } = setup();
    projector.snapshot();
    apply({ sessionUpdate: 'usage_update', used: 1, size: 2 });
    apply({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] });
    apply({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'd', input: { hint: 'h' } }] });
    state.beginTurn();
    timer.fire();
    assert.deepEqual(ops().map((o) => o.op).sort(), ['commands', 'header', 'plan', 'turn']);
    const commands = ops().find((o) => o.op === 'commands');
    assert.deepEqual(commands, { op: 'commands', commands: [{ name: 'review', description: 'd', hint: 'h' }] });
  });

  it('includes everything dirty in a snapshot and drops the pending marks', () => {
    const { timer, chunk, ops, projector } = setup();
    chunk('a');
    const snapshot = projector.snapshot();
    assert.equal(snapshot.entries.length, 1);
    timer.fire();
    assert.deepEqual(ops(), []);
  });

  it('patches tool cards whose terminal output changed outside the session', () => {
    const { timer, apply, ops, projector } = setup();
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'make', kind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1' }] });
    projector.snapshot();
    projector.toolCallsChanged(['unknown']);
    timer.fire();
    assert.deepEqual(ops(), []);
    projector.toolCallsChanged(['tc']);
    timer.fire();
    assert.deepEqual(ops().map((o) => o.op === 'entry' && o.index), [0]);
  });

  it('stops posting once disposed', () => {
    const { timer, chunk, posts, projector } = setup();
    projector.snapshot();
    chunk('a');
    projector.dispose();
    timer.fire();
    chunk('b');
    assert.equal(posts.length, 0);
  });

  it('with real timers, posts at most about once per interval while streaming', async () => {
    const state = new SessionState();
    const posts: HostMessage[] = [];
    const projector = new SessionProjector(1, state, { get: () => undefined }, () => header, (m) => posts.push(m));
    projector.snapshot();
    const start = Date.now();
    while (Date.now() - start < 160) {
      state.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 40));
    projector.dispose();
    // At most one post per 16 ms interval (plus the final flush); a loaded machine may manage fewer.
    const elapsed = Date.now() - start;
    assert.ok(posts.length >= 1 && posts.length <= Math.ceil(elapsed / 16) + 1, `${posts.length} posts in ${elapsed} ms`);
    const text = (posts as PatchMessage[]).flatMap((p) => p.ops).map((o) => (o.op === 'append' ? o.delta : o.op === 'entry' && o.entry.kind === 'agent' ? o.entry.text : '')).join('');
    assert.equal(text, (state.entries[0] as { text: string }).text, 'the patches add up to the message');
  });
});
