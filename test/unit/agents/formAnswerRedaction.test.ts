import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FormAnswerRedaction } from '../../../src/agents/formAnswerRedaction';
import { formatTrace } from '../../../src/acp/trace';

const ask = (id: number | string, properties: Record<string, unknown>) => ({
  direction: 'receive' as const,
  bytes: 0,
  message: { jsonrpc: '2.0', id, method: 'elicitation/create', params: { sessionId: 's', mode: 'form', message: 'Please', requestedSchema: { type: 'object', properties } } },
});
const answer = (id: number | string, content: Record<string, unknown>) => ({ direction: 'send' as const, bytes: 0, message: { jsonrpc: '2.0', id, result: { action: 'accept', content } } });

describe('form answers in the protocol log: secret-looking fields redacted by title and description, not only key', () => {
  it('a field named innocently but titled "Password" has its value replaced; the other fields stay', () => {
    const r = new FormAnswerRedaction();
    r.redact(ask(7, { answer1: { type: 'string', title: 'Password' }, user: { type: 'string', title: 'User name' }, q: { type: 'string', description: 'Your GitHub token' } }));
    const sent = answer(7, { answer1: 'hunter2', user: 'ada', q: 'ghp_abc' });
    const logged = r.redact(sent);
    assert.deepEqual((logged.message as { result: { content: unknown } }).result.content, { answer1: '***', user: 'ada', q: '***' });
    assert.equal((sent.message.result.content as { answer1: string }).answer1, 'hunter2', 'what goes to the agent is untouched');
    const line = formatTrace(logged, 'verbose')!;
    assert.ok(!line.includes('hunter2') && !line.includes('ghp_abc') && line.includes('ada'));
  });

  it('leaves other messages as they are (the same object: nothing copied on the streaming path)', () => {
    const r = new FormAnswerRedaction();
    r.redact(ask(1, { pin: { type: 'string' } }));
    const other = answer(2, { pin: '1234' });
    assert.equal(r.redact(other), other, 'another id');
    const update = { direction: 'receive' as const, bytes: 0, message: { jsonrpc: '2.0', method: 'session/update', params: {} } };
    assert.equal(r.redact(update), update);
    const decline = { direction: 'send' as const, bytes: 0, message: { jsonrpc: '2.0', id: 1, result: { action: 'decline' } } };
    assert.equal(r.redact(decline), decline, 'a decline carries nothing to hide');
    const again = answer(1, { pin: '1234' });
    assert.equal(r.redact(again), again, 'the id was used up by the decline');
  });

  it('whatever the form and the answer, no value of a secret-titled field reaches the log (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[qxz][0-9]{0,5}$/), fc.string({ minLength: 6, maxLength: 20 }), { minKeys: 1, maxKeys: 6 }), fc.oneof(fc.integer(), fc.string({ minLength: 1 })), (content, id) => {
        const names = Object.keys(content);
        const r = new FormAnswerRedaction();
        r.redact(ask(id, Object.fromEntries(names.map((n, i) => [n, { type: 'string', title: i % 2 ? 'Secret passphrase' : 'Comment' }]))));
        const logged = r.redact(answer(id, content)).message as { result: { content: Record<string, string> } };
        names.forEach((n, i) => assert.equal(logged.result.content[n], i % 2 ? '***' : content[n]));
      }),
      { seed: 14, numRuns: 200 },
    );
  });
});
