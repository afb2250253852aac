import * as assert from 'node:assert/strict';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { howdah, waitFor } from './helpers';

interface Snapshot {
  turn: string;
  entries: { kind: string; role?: string; text?: string; stopReason?: string }[];
  queue?: { id: number; text: string }[];
}
const snap = (api: HowdahApi, key: string) => api.snapshot(key) as Snapshot;
const send = (api: HowdahApi, text: string) => api.panelIntent({ type: 'send', text, attachments: [] });
const userTexts = (s: Snapshot) => s.entries.filter((e) => e.kind === 'message' && e.role === 'user').map((e) => e.text);
const answers = (s: Snapshot) => s.entries.filter((e) => e.kind === 'message' && e.role === 'agent').map((e) => e.text ?? '');

describe('the prompt queue: messages sent while the agent works', function () {
  this.timeout(60000);
  let api: HowdahApi;
  let key: string;

  beforeEach(async () => {
    api = await howdah();
    key = await api.newSession(await registerAgent('queue', 'test:queue-slow'));
    api.setActive(key);
  });
  afterEach(async () => api.close(key));

  it('two messages sent during a slow turn are queued, then sent in order, one turn each, after end_turn', async () => {
    const first = send(api, 'first');
    await waitFor('the first turn to run', () => snap(api, key).turn === 'running' || undefined);
    await send(api, 'second');
    await send(api, 'third');
    assert.deepEqual(snap(api, key).queue?.map((q) => q.text), ['second', 'third'], 'queued, not refused and not sent');
    assert.deepEqual(userTexts(snap(api, key)), ['first']);
    await first;
    await waitFor('all three turns to end', () => (snap(api, key).entries.filter((e) => e.kind === 'turn-end').length === 3 && snap(api, key).turn === 'idle') || undefined, 20000);
    const s = snap(api, key);
    assert.deepEqual(userTexts(s), ['first', 'second', 'third']);
    assert.deepEqual(answers(s).map((a) => /"(\w+)"/.exec(a)?.[1]), ['first', 'second', 'third'], 'the agent heard them in order');
    assert.deepEqual(s.queue, []);
  });

  it('Stop leaves the queue waiting; Send now stops the turn and sends that message next', async () => {
    const first = send(api, 'first');
    await waitFor('the first turn to run', () => snap(api, key).turn === 'running' || undefined);
    await send(api, 'later');
    await send(api, 'urgent');
    await api.panelIntent({ type: 'cancel' });
    await first;
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(userTexts(snap(api, key)), ['first'], 'nothing sent after a Stop');
    assert.deepEqual(snap(api, key).queue?.map((q) => q.text), ['later', 'urgent']);

    // A turn runs again; Send now on the second queued message stops it and sends that one first.
    const again = send(api, 'again');
    await waitFor('the turn to run', () => snap(api, key).turn === 'running' || undefined);
    const urgent = snap(api, key).queue!.find((q) => q.text === 'urgent')!;
    await api.panelIntent({ type: 'queueSendNow', id: urgent.id });
    await again;
    await waitFor('urgent and later to be sent', () => (userTexts(snap(api, key)).length === 4 && snap(api, key).turn === 'idle') || undefined, 20000);
    const s = snap(api, key);
    assert.deepEqual(userTexts(s), ['first', 'again', 'urgent', 'later'], 'Send now went first, then the rest in order');
    assert.equal(s.entries.filter((e) => e.kind === 'turn-end')[1].stopReason, 'cancelled', 'the running turn was stopped');
  });

  it('a queued message can be edited and removed before it goes', async () => {
    const first = send(api, 'first');
    await waitFor('the first turn to run', () => snap(api, key).turn === 'running' || undefined);
    await send(api, 'typo');
    await send(api, 'drop me');
    const [typo, drop] = snap(api, key).queue!;
    await api.panelIntent({ type: 'queueEdit', id: typo.id, text: 'fixed' });
    await api.panelIntent({ type: 'queueRemove', id: drop.id });
    await api.panelIntent({ type: 'queueEdit', id: drop.id, text: 'too late' });
    assert.deepEqual(snap(api, key).queue?.map((q) => q.text), ['fixed']);
    await first;
    await waitFor('the edited message to be sent', () => (userTexts(snap(api, key)).length === 2 && snap(api, key).turn === 'idle') || undefined, 20000);
    assert.deepEqual(userTexts(snap(api, key)), ['first', 'fixed']);
  });
});
