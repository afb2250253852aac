import { strict as assert } from 'node:assert';
import { describeMessage, formatTrace, redact } from '../../../src/acp/trace';

describe('protocol trace', () => {
  it('never logs environment values, header values or credentials', () => {
    const message = {
      jsonrpc: '2.0',
      id: 3,
      method: 'session/new',
      params: {
        cwd: '/w',
        mcpServers: [
          { name: 'db', command: '/bin/db', args: [], env: [{ name: 'DB_PASSWORD', value: 'hunter2' }] },
          { type: 'http', name: 'api', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
        ],
        launch: { env: { OPENAI_API_KEY: 'sk-123' } },
        apiKey: 'sk-456',
      },
    };
    const text = formatTrace({ direction: 'send', message, bytes: 100 }, 'verbose')!;
    for (const secret of ['hunter2', 'Bearer abc', 'sk-123', 'sk-456']) assert.ok(!text.includes(secret), secret);
    assert.ok(text.includes('DB_PASSWORD') && text.includes('OPENAI_API_KEY'), 'names stay, values go');
    assert.deepEqual(redact({ a: [1, { b: 'x' }] }), { a: [1, { b: 'x' }] });
  });

  it('writes one line per message at the messages level', () => {
    assert.equal(formatTrace({ direction: 'send', message: { id: 1, method: 'initialize', params: {} }, bytes: 42 }, 'messages'), '→ request #1 initialize (42 B)');
    assert.equal(
      describeMessage({ direction: 'receive', message: { method: 'session/update', params: { update: { sessionUpdate: 'plan' } } }, bytes: 10 }),
      '← notification session/update plan (10 B)',
    );
    assert.equal(describeMessage({ direction: 'receive', message: { id: 'x', error: { code: -32000, message: 'Auth' } }, bytes: 5 }), '← error #x -32000 Auth (5 B)');
    assert.equal(formatTrace({ direction: 'send', message: {}, bytes: 1 }, 'off'), undefined);
  });
});
