import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { conversationContext } from '../../../src/session/conversationContext';
import { SessionState } from '../../../src/session/sessionState';
import { memorySession } from '../support/memorySession';

function conversation(): SessionState {
  const s = new SessionState();
  const feed = (u: Record<string, unknown>) => s.apply(SessionUpdate.parse(u));
  s.addUserMessage([{ type: 'text', text: 'Fix the greeting' }, { type: 'resource_link', uri: 'file:///w/greet.ts', name: 'greet.ts' }]);
  feed({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'private musing' } });
  feed({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I will read it first.' } });
  feed({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read\ngreet.ts', kind: 'read', status: 'completed', locations: [{ path: '/w/greet.ts', line: 3 }] });
  feed({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit greet.ts', kind: 'edit', status: 'failed' });
  s.addError('The agent stopped', undefined, true);
  s.addTurnEnd('end_turn');
  s.addUserMessage([{ type: 'text', text: 'Now the tests' }]);
  return s;
}

describe('conversation context for another agent', () => {
  it('writes user and agent messages in full and each tool call as one line; thoughts, errors and stop reasons are left out', () => {
    const { text, included, omitted } = conversationContext(conversation(), { fromAgent: 'Claude Code' });
    assert.match(text, /^This conversation started with Claude Code and continues here with you\./);
    assert.match(text, /## User\nFix the greeting\n\[attached: file:\/\/\/w\/greet\.ts\]/);
    assert.match(text, /## Claude Code\nI will read it first\./);
    assert.match(text, /- Tool call: Read greet\.ts \(completed; \/w\/greet\.ts:3\)/);
    assert.match(text, /- Tool call: Edit greet\.ts \(failed\)/);
    assert.match(text, /## User\nNow the tests$/);
    assert.doesNotMatch(text, /private musing|The agent stopped|end_turn/);
    assert.deepEqual([included, omitted], [5, 0]);
  });

  it('leaves out a turn the agent refused, and says so', () => {
    const s = conversation();
    s.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I will not do that.' } }));
    (s.entries.filter((e) => e.kind === 'message' && e.role === 'user').at(-1) as { refused?: true }).refused = true;
    s.addUserMessage([{ type: 'text', text: 'Then the docs' }]);
    const { text } = conversationContext(s, { fromAgent: 'Claude Code' });
    assert.doesNotMatch(text, /Now the tests|I will not do that/);
    assert.match(text, /1 turn the agent refused is left out: it was not part of its context\./);
    assert.match(text, /## User\nThen the docs$/);
  });

  it('stops before entry `end`', () => {
    const state = conversation();
    const end = state.entries.findIndex((e) => e.kind === 'message' && e.role === 'user' && e.text === 'Now the tests');
    const { text } = conversationContext(state, { fromAgent: 'A', end });
    assert.doesNotMatch(text, /Now the tests/);
    assert.match(text, /Edit greet\.ts/);
  });

  it('within the cap keeps the newest part and says how much of the oldest was left out', () => {
    const state = new SessionState();
    for (let i = 0; i < 100; i++) state.addUserMessage([{ type: 'text', text: `message ${i} ${'x'.repeat(90)}` }]);
    const { text, included, omitted } = conversationContext(state, { fromAgent: 'A', maxChars: 2_000 });
    assert.equal(included + omitted, 100);
    assert.ok(omitted > 80, `omitted ${omitted}`);
    assert.match(text, new RegExp(`The ${omitted} oldest messages and tool calls are left out, to stay within 2,000 characters\\.`));
    assert.match(text, /message 99 /);
    assert.doesNotMatch(text, /message 0 /);
    const single = new SessionState();
    single.addUserMessage([{ type: 'text', text: 'y'.repeat(5_000) }]);
    assert.match(conversationContext(single, { fromAgent: 'A', maxChars: 1_000 }).text, /\[… cut at 1,000 characters\]/, 'one message longer than the cap is cut, not dropped');
  });

  it('goes with the first prompt only: as text when the agent takes no embedded context', async () => {
    const { peer, session } = await memorySession();
    session.state.carryOver = 'This conversation started with A…';
    const first = session.prompt([{ type: 'text', text: 'go on' }]);
    const req = await peer.next();
    const prompt = (req.params as { prompt: { type: string; text?: string }[] }).prompt;
    assert.equal(prompt.length, 2);
    assert.match(prompt[0].text ?? '', /^This conversation started with A…/);
    assert.equal(prompt[1].text, 'go on');
    peer.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } });
    await first;
    assert.equal(session.state.carryOver, undefined);
    assert.deepEqual(session.state.entries[0].kind === 'message' && session.state.entries[0].text, 'go on', 'the transcript shows what the user typed');
    const second = session.prompt([{ type: 'text', text: 'more' }]);
    const req2 = await peer.next();
    assert.equal((req2.params as { prompt: unknown[] }).prompt.length, 1);
    peer.send({ jsonrpc: '2.0', id: req2.id, result: { stopReason: 'end_turn' } });
    await second;
  });
});
