import { strict as assert } from 'node:assert';
import { MAX_QUEUED, PromptQueue } from '../../../src/session/promptQueue';
import { parsePersistedSession, serializeSession } from '../../../src/session/persistence';
import { SessionState } from '../../../src/session/sessionState';

describe('prompt queue', () => {
  it('keeps messages in order; edit, remove and promote act on ids; every change is said', () => {
    let changes = 0;
    const q = new PromptQueue(() => changes++);
    const a = q.add('a', [])!;
    const b = q.add('b', [{ kind: 'file', uri: 'file:///x', label: 'x' }])!;
    const c = q.add('c', [])!;
    assert.deepEqual(q.items.map((m) => m.text), ['a', 'b', 'c']);
    assert.ok(q.edit(b.id, 'b2'));
    assert.equal(q.items[1].attachments.length, 1, 'an edit keeps the attachments');
    assert.ok(q.promote(c.id));
    assert.deepEqual(q.items.map((m) => m.text), ['c', 'a', 'b2']);
    assert.ok(q.remove(a.id));
    assert.equal(q.remove(a.id), false);
    assert.equal(q.edit(a.id, 'gone'), false);
    assert.equal(q.promote(a.id), false);
    const first = q.shift()!;
    assert.equal(first.text, 'c');
    q.unshift(first);
    assert.deepEqual(q.items.map((m) => m.text), ['c', 'b2']);
    assert.equal(changes, 8, 'three adds, an edit, a promote, a remove, a shift, an unshift; refused calls say nothing');
  });

  it(`refuses past ${MAX_QUEUED} messages`, () => {
    const q = new PromptQueue(() => undefined);
    for (let i = 0; i < MAX_QUEUED; i++) assert.ok(q.add(String(i), []));
    assert.equal(q.add('one too many', []), undefined);
    assert.equal(q.size, MAX_QUEUED);
  });

  it('is saved with the transcript and comes back after a reload, new ids after the saved ones', () => {
    const state = new SessionState();
    state.queue.add('later', []);
    state.queue.add('then this', [{ kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts' }]);
    const saved = parsePersistedSession(JSON.parse(JSON.stringify(serializeSession(state, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/w' }))))!;
    assert.equal(saved.queue?.length, 2);
    const restored = new SessionState();
    restored.restore({ entries: [], toolCalls: [], plan: [], queue: saved.queue });
    assert.deepEqual(restored.queue.items.map((m) => m.text), ['later', 'then this']);
    assert.equal(restored.queue.add('new', [])!.id, 3);
    const empty = new SessionState();
    assert.equal(serializeSession(empty, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/w' }).queue, undefined, 'nothing saved when nothing waits');
    assert.equal(parsePersistedSession({ ...saved, queue: [{ id: 'x' }] })?.queue, undefined, 'a damaged queue is dropped, the transcript kept');
  });
});
