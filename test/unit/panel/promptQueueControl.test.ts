import { strict as assert } from 'node:assert';
import { Emitter } from '../../../src/base/event';
import type { PanelSession, PanelSessions } from '../../../src/panel/panelSessions';
import { PromptQueueControl } from '../../../src/panel/promptQueueControl';
import { Session } from '../../../src/session/session';

/** One session whose turns the test starts and ends by hand; `send` records what the control sends. */
function setup() {
  const session = new Session(undefined, 's1', {});
  const target = { key: 'k', agentId: 'a', agentName: 'A', session, status: 'ready' } as PanelSession;
  const changed = new Emitter<void>();
  const cancelled: string[] = [];
  const sessions: PanelSessions = {
    onDidChange: changed.event,
    active: target,
    list: () => [target],
    setActive: () => undefined,
    prompt: async () => undefined,
    cancel: async (key) => void cancelled.push(key),
  };
  const sent: string[] = [];
  let accept = true;
  const control = new PromptQueueControl(sessions, async (_t, text) => {
    sent.push(text);
    if (accept) session.state.addUserMessage([{ type: 'text', text }]);
  });
  const state = session.state;
  const startTurn = (text = 'running') => {
    state.addUserMessage([{ type: 'text', text }]);
    state.beginTurn();
  };
  const endTurn = (stopReason?: string) => state.endTurn(stopReason);
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return { control, target, state, sent, cancelled, startTurn, endTurn, settle, refuse: () => (accept = false) };
}

describe('prompt queue control', () => {
  it('sends the first queued message when a turn ends by itself, one per turn', async () => {
    const t = setup();
    t.startTurn();
    t.control.enqueue(t.target, 'one', []);
    t.control.enqueue(t.target, 'two', []);
    t.endTurn('end_turn');
    await t.settle();
    assert.deepEqual(t.sent, ['one']);
    t.startTurn('one');
    t.endTurn('max_tokens');
    await t.settle();
    assert.deepEqual(t.sent, ['one', 'two']);
    assert.equal(t.state.queue.size, 0);
  });

  it('after a Stop or a failed turn the queue waits', async () => {
    const t = setup();
    t.startTurn();
    t.control.enqueue(t.target, 'one', []);
    t.endTurn('cancelled');
    t.startTurn();
    t.endTurn();
    await t.settle();
    assert.deepEqual(t.sent, []);
    assert.equal(t.state.queue.size, 1);
  });

  it('Send now stops the running turn and sends that message first; when idle it sends at once', async () => {
    const t = setup();
    t.startTurn();
    t.control.enqueue(t.target, 'one', []);
    const two = t.state.queue.add('two', [])!;
    await t.control.sendNow(t.target, two.id);
    assert.deepEqual(t.cancelled, ['k']);
    t.endTurn('cancelled');
    await t.settle();
    assert.deepEqual(t.sent, ['two']);
    await t.control.sendNow(t.target, t.state.queue.items[0].id);
    assert.deepEqual(t.sent, ['two', 'one'], 'idle: sent at once');
  });

  it('Send now with an agent that takes messages mid-turn sends into the running turn without stopping it; a refusal falls back to Stop', async () => {
    const t = setup();
    Object.defineProperty(t.target.session, 'takesMessagesMidTurn', { get: () => true });
    const interjected: string[] = [];
    let take = true;
    const control = new PromptQueueControl(
      { onDidChange: new Emitter<void>().event, active: t.target, list: () => [t.target], setActive: () => undefined, prompt: async () => undefined, cancel: async (key) => void t.cancelled.push(key) },
      async () => undefined,
      async (_target, text) => (take ? (interjected.push(text), true) : false),
    );
    t.startTurn();
    const one = t.state.queue.add('one', [])!;
    const two = t.state.queue.add('two', [])!;
    await control.sendNow(t.target, two.id);
    assert.deepEqual(interjected, ['two']);
    assert.deepEqual(t.cancelled, [], 'the turn goes on');
    assert.deepEqual(t.state.queue.items.map((m) => m.text), ['one']);
    take = false;
    await control.sendNow(t.target, one.id);
    assert.deepEqual(t.cancelled, ['k'], 'refused: stopped, then sent');
    assert.deepEqual(t.state.queue.items.map((m) => m.text), ['one'], 'still first in the queue, to go after the Stop');
  });

  it('a message the session could not take goes back to the front; a damaged attachment is left out', async () => {
    const t = setup();
    t.refuse();
    t.state.queue.add('one', [{ kind: 'file', uri: 'file:///a', label: 'a' }, { kind: 'nonsense' }]);
    let attachments: unknown[] = [];
    const control = new PromptQueueControl(
      { onDidChange: new Emitter<void>().event, active: t.target, list: () => [t.target], setActive: () => undefined, prompt: async () => undefined, cancel: async () => undefined },
      async (_target, _text, a) => void (attachments = [...a]),
    );
    await control.sendNow(t.target, t.state.queue.items[0].id);
    assert.deepEqual(attachments, [{ kind: 'file', uri: 'file:///a', label: 'a' }]);
    assert.deepEqual(t.state.queue.items.map((m) => m.text), ['one'], 'back in the queue');
  });

  it('refuses an empty edit', () => {
    const t = setup();
    const one = t.state.queue.add('one', [])!;
    assert.equal(t.control.edit(t.target, one.id, '  '), false);
    assert.ok(t.control.edit(t.target, one.id, 'better'));
  });
});
