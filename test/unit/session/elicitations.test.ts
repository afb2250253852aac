import { strict as assert } from 'node:assert';
import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { serializeSession } from '../../../src/session/persistence';
import { SessionState } from '../../../src/session/sessionState';
import type { SessionChange } from '../../../src/session/state';
import { tick } from '../support/memoryPeer';
import { memorySession } from '../support/memorySession';

const schema = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', minimum: 0 }, apiToken: { type: 'string' } },
  required: ['name'],
};
const ask = (id: number | string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'elicitation/create',
  params: { sessionId: 's1', message: 'Who are you?', mode: 'form', requestedSchema: schema, ...params },
});
const elicitations = (state: SessionState) => state.entries.flatMap((e) => (e.kind === 'elicitation' ? [e.elicitation] : []));

describe('elicitation in a session', () => {
  it('advertises form and url modes in initialize', () => {
    const caps = buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'allow', terminalAuth: true });
    assert.deepEqual(caps.elicitation, { form: {}, url: {} });
  });

  it('a link question: Open answers accept, elicitation/complete closes the card; unknown ids are ignored, a live id cannot be reused', async () => {
    const { peer, session } = await memorySession();
    const link = { mode: 'url', url: 'https://example.com/device', elicitationId: 'e-1', requestedSchema: undefined };
    peer.send(ask(20, link));
    await tick(10);
    peer.send(ask(21, link));
    assert.equal((((await peer.next()).error) as { code: number }).code, -32602, 'e-1 is outstanding');
    const [record] = elicitations(session.state);
    assert.deepEqual([record.mode, record.url, record.status], ['url', 'https://example.com/device', 'waiting']);
    assert.equal(session.elicitations.answer(record.key, { action: 'accept' }), true);
    assert.deepEqual((await peer.next()).result, { action: 'accept' });
    assert.equal(record.status, 'accepted');
    peer.send({ jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'nobody' } });
    peer.send({ jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'e-1' } });
    await tick(10);
    assert.equal(record.status, 'completed');
    assert.equal(elicitations(session.state).length, 1);
  });

  it('a form question becomes a transcript entry; Submit answers accept with typed content and keeps a redacted summary', async () => {
    const { peer, session } = await memorySession();
    const changes: SessionChange['type'][] = [];
    session.state.onChange((c) => changes.push(c.type));
    peer.send(ask(7, { toolCallId: 'tc-1' }));
    await tick(10);
    const [record] = elicitations(session.state);
    assert.equal(record.status, 'waiting');
    assert.equal(record.toolCallId, 'tc-1');
    assert.deepEqual(record.form?.fields.map((f) => f.label), ['Name', 'age', 'apiToken']);
    assert.ok(changes.includes('elicitation-requested'));
    assert.equal(session.elicitations.answer(record.key, { action: 'accept', inputs: { name: '', age: '3' } }), false, 'an invalid form is not sent');
    assert.equal(session.elicitations.answer(record.key, { action: 'accept', inputs: { name: 'Ada', age: '3', apiToken: 's3cret' } }), true);
    const answer = await peer.next();
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 7, result: { action: 'accept', content: { name: 'Ada', age: 3, apiToken: 's3cret' } } });
    assert.equal(record.status, 'accepted');
    assert.ok(changes.includes('elicitation-settled'));
    const saved = JSON.stringify(serializeSession(session.state, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's1', cwd: '/w' }));
    assert.ok(saved.includes('"Ada"') && !saved.includes('s3cret'), 'the transcript keeps the answer, never the secret-looking value');
    assert.equal(session.elicitations.answer(record.key, { action: 'decline' }), false, 'answered once');
  });

  it('Decline and Cancel answer without content', async () => {
    const { peer, session } = await memorySession();
    peer.send(ask(1));
    peer.send(ask(2));
    await tick(10);
    const [a, b] = elicitations(session.state);
    session.elicitations.answer(a.key, { action: 'decline' });
    session.elicitations.answer(b.key, { action: 'cancel' });
    const answers = [await peer.next(), await peer.next()].sort((x, y) => Number(x.id) - Number(y.id));
    assert.deepEqual(answers.map((m) => m.result), [{ action: 'decline' }, { action: 'cancel' }]);
    assert.deepEqual([a.status, b.status], ['declined', 'cancelled']);
  });

  it('Stop of the turn answers a waiting question cancel; the agent withdrawing it ($/cancel_request) too', async () => {
    const { peer, session } = await memorySession();
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    const prompt = await peer.next();
    peer.send(ask('q1'));
    peer.send(ask('q2'));
    await tick(10);
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'q2' } });
    await tick(10);
    const withdrawn = elicitations(session.state)[1];
    assert.deepEqual([withdrawn.status, withdrawn.endedBy], ['cancelled', 'agent']);
    await session.cancel();
    const sent = [await peer.next(), await peer.next(), await peer.next()];
    assert.deepEqual(sent.find((m) => m.id === 'q1')?.result, { action: 'cancel' });
    assert.equal(elicitations(session.state)[0].endedBy, 'turn');
    peer.send({ jsonrpc: '2.0', id: prompt.id, result: { stopReason: 'cancelled' } });
    assert.equal(await turn, 'cancelled');
  });

  it('a closed session settles its questions; a saved waiting one comes back cancelled', async () => {
    const { peer, session } = await memorySession();
    peer.send(ask(3));
    await tick(10);
    session.dispose();
    assert.deepEqual((await peer.next()).result, { action: 'cancel' });
    assert.equal(elicitations(session.state)[0].endedBy, 'closed');

    const restored = new SessionState();
    const waiting = { kind: 'elicitation' as const, id: 1, elicitation: { key: 99, mode: 'form' as const, message: 'm', status: 'waiting' as const } };
    restored.restore({ entries: [waiting], toolCalls: [], plan: [] });
    assert.deepEqual([elicitations(restored)[0].status, elicitations(restored)[0].endedBy], ['cancelled', 'closed']);
  });

  it('answers -32602 for a link without its id, an unknown mode, and a form without a usable schema', async () => {
    const { peer } = await memorySession();
    peer.send(ask(10, { mode: 'url', url: 'https://example.com' }));
    peer.send(ask(11, { mode: 'carrier-pigeon' }));
    peer.send(ask(12, { requestedSchema: { type: 'object' } }));
    const errors = [await peer.next(), await peer.next(), await peer.next()].sort((x, y) => Number(x.id) - Number(y.id));
    assert.deepEqual(errors.map((m) => (m.error as { code: number }).code), [-32602, -32602, -32602]);
  });
});
