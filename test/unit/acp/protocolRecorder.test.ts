import { strict as assert } from 'node:assert';
import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { ProtocolRecorder } from '../../../src/acp/protocolRecorder';

describe('protocol recorder', () => {
  const caps = buildClientCapabilities({ readFiles: true, writeFiles: 'off', terminal: 'off', terminalAuth: false });

  it('flags what breaks the spec: unknown update kinds, invalid shapes, unadvertised methods, unknown response ids', () => {
    const r = new ProtocolRecorder(caps);
    const recv = (message: unknown) => r.trace({ direction: 'receive', message, bytes: 10 });
    r.trace({ direction: 'send', message: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, bytes: 10 });
    recv({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } });
    recv({ jsonrpc: '2.0', id: 1, result: {} });
    recv({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'future_thing' } } });
    recv({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'usage_update', used: 'x' } } });
    recv({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } } });
    recv({ jsonrpc: '2.0', id: 5, method: 'terminal/create', params: { sessionId: 's', command: 'ls' } });
    recv({ jsonrpc: '2.0', id: 6, method: 'fs/read_text_file', params: { sessionId: 's' } });
    recv({ id: 7, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } });
    recv('{"broken');
    r.warning({ kind: 'invalid-json', message: 'Invalid JSON from the agent' });
    const problems = r.timeline().map((e) => [e.method, e.problems.join('; ')]);
    assert.deepEqual(problems, [
      ['initialize', ''],
      ['response', ''],
      ['response', 'Response to an unknown request id 1'],
      ['session/update', 'Unknown update kind "future_thing"'],
      ['session/update', problems[4][1]],
      ['session/update', ''],
      ['terminal/create', 'terminal/create was not advertised by Howdah'],
      ['fs/read_text_file', 'Invalid params for fs/read_text_file'],
      ['fs/read_text_file', 'Missing "jsonrpc": "2.0"'],
      ['(invalid)', 'Not a JSON-RPC message object'],
      ['warning', 'Invalid JSON from the agent'],
    ]);
    assert.match(problems[4][1], /^Invalid usage_update/);
  });

  it('keeps only the last messages, in order', () => {
    const r = new ProtocolRecorder(caps, 3);
    for (let i = 1; i <= 7; i++) r.trace({ direction: 'send', message: { jsonrpc: '2.0', id: i, method: `m${i}` }, bytes: 1 });
    assert.deepEqual(r.timeline().map((e) => e.method), ['m5', 'm6', 'm7']);
    assert.equal(r.droppedCount, 4);
  });
});
