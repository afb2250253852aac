import { strict as assert } from 'node:assert';
import { JsonRpcConnection } from '../../../src/acp/jsonRpc';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { formatTrace, redact } from '../../../src/acp/trace';
import { serializeSession } from '../../../src/session/persistence';
import { SessionState } from '../../../src/session/sessionState';
import { MemoryPeer, tick } from '../support/memoryPeer';
import { memorySession } from '../support/memorySession';

/** Issue 8: what the protocol fuzzer (protocolFuzz.test.ts) found, one test each. */
const setup = () => memorySession({ initialize: false });

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('fuzz findings: deep nesting', () => {
  it('an invalid answer nested 10,000 levels deep ends the turn with an error entry', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'go' }]).catch((e: Error) => e);
    const req = await peer.next();
    peer.raw(`{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":${deep(10_000)}}\n`);
    const error = await turn;
    assert.ok(error instanceof Error);
    assert.match(error.message, /invalid/);
    assert.equal(session.state.turn, 'idle');
    const last = session.state.entries[session.state.entries.length - 1];
    assert.equal(last.kind, 'error');
  });

  it('an error whose data is nested 10,000 levels deep ends the turn with an error entry', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'go' }]).catch((e: Error) => e);
    const req = await peer.next();
    peer.raw(`{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"error":{"code":-32603,"message":"boom","data":${deep(10_000)}}}\n`);
    const error = await turn;
    assert.ok(error instanceof Error);
    assert.equal(error.message, 'boom');
    assert.equal(session.state.turn, 'idle');
    const last = session.state.entries[session.state.entries.length - 1];
    assert.ok(last.kind === 'error' && last.message === 'boom');
  });

  it('a message the trace cannot format does not stop the stream', async () => {
    const peer = new MemoryPeer();
    const seen: string[] = [];
    const warnings: string[] = [];
    new JsonRpcConnection(
      peer.toUs,
      peer.fromUs,
      { request: async () => ({}), notification: (method) => seen.push(method) },
      {
        trace: (event) => formatTrace(event, 'verbose') && JSON.stringify(event.message),
        warn: (w) => warnings.push(w.message),
      },
    );
    peer.raw(`{"jsonrpc":"2.0","method":"deep","params":${deep(10_000)}}\n`);
    peer.send({ jsonrpc: '2.0', method: 'after' });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'req' });
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', id: 1, result: {} });
    await tick(10);
    assert.deepEqual(seen, ['deep', 'after']);
    assert.ok(warnings.some((w) => /Tracing a message failed/.test(w)));
  });

  it('formatTrace shows a message nested too deeply as one line plus a placeholder', () => {
    const message = JSON.parse(`{"jsonrpc":"2.0","method":"x","params":${deep(10_000)}}`);
    const text = formatTrace({ direction: 'receive', message, bytes: 20_000 }, 'verbose')!;
    assert.match(text, /notification x/);
    assert.match(text, /nested too deeply/);
  });

  it('redact (the protocol log view, the debug bundle) cuts a value nested 10,000 levels deep and still redacts', () => {
    const message = JSON.parse(`{"params":{"token":"s3cret","deep":${deep(10_000)}}}`);
    const text = JSON.stringify(redact(message));
    assert.match(text, /nested too deeply to show/);
    assert.ok(!text.includes('s3cret'));
    assert.ok(text.length < 1000);
  });

  it('a transcript holding an update nested 10,000 levels deep still saves, cut deep down', () => {
    const state = new SessionState();
    state.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'kept' } }));
    state.apply(SessionUpdate.parse(JSON.parse(`{"sessionUpdate":"mystery","payload":${deep(10_000)}}`)));
    state.apply(SessionUpdate.parse(JSON.parse(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"T","rawInput":${deep(10_000)}}`)));
    const saved = serializeSession(state, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/' });
    assert.deepEqual(saved.entries.map((e) => e.kind), ['message', 'unknown', 'tool']);
    assert.ok(saved.entries[0].kind === 'message' && saved.entries[0].text === 'kept');
    assert.equal(saved.toolCalls[0].title, 'T');
    assert.match(JSON.stringify(saved), /nested too deeply to save/);
  });
});
