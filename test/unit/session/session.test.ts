import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { memorySession } from '../support/memorySession';
import { tick } from '../support/memoryPeer';

const setup = () => memorySession();

const update = (u: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: u } });
const options = [
  { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

describe('session turns and permissions', () => {
  it('runs a turn: user message, streamed updates, stop reason', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'hello' }]);
    assert.equal(session.state.turn, 'running');
    const req = await peer.next();
    assert.equal(req.method, 'session/prompt');
    peer.send(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi!' } }));
    peer.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'max_tokens' } });
    assert.equal(await turn, 'max_tokens');
    assert.equal(session.state.turn, 'idle');
    assert.deepEqual(session.state.entries.map((e) => e.kind), ['message', 'message', 'turn-end']);
    assert.ok(session.state.entries[2].kind === 'turn-end' && session.state.entries[2].stopReason === 'max_tokens');
  });

  it('a message sent into the running turn (an agent that takes them, like claude-agent-acp): one turn, until the agent is done with both', async () => {
    const { peer, session } = await memorySession({ agentCapabilities: { _meta: { claudeCode: { promptQueueing: true } } } });
    assert.equal(session.takesMessagesMidTurn, true);
    const ended: unknown[] = [];
    session.state.onChange((c) => c.type === 'turn-ended' && ended.push(c.stopReason));
    const turn = session.prompt([{ type: 'text', text: 'first' }]);
    const first = await peer.next();
    assert.equal(session.interject([{ type: 'text', text: 'and this too' }]), true);
    assert.equal(session.interject([{ type: 'text', text: 'a third' }]), false, 'one at a time');
    const second = await peer.next();
    assert.equal(second.method, 'session/prompt');
    assert.deepEqual((second.params as { prompt: unknown }).prompt, [{ type: 'text', text: 'and this too' }]);
    // The agent picks up the second: the first prompt ends, the turn does not.
    peer.send({ jsonrpc: '2.0', id: first.id, result: { stopReason: 'end_turn' } });
    await tick(10);
    assert.equal(session.state.turn, 'running');
    assert.deepEqual(ended, []);
    peer.send(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Both done.' } }));
    peer.send({ jsonrpc: '2.0', id: second.id, result: { stopReason: 'max_tokens' } });
    assert.equal(await turn, 'max_tokens', 'the turn ends with how the last prompt ended');
    assert.deepEqual(ended, ['max_tokens']);
    assert.deepEqual(session.state.entries.filter((e) => e.kind === 'message').map((e) => e.kind === 'message' && [e.role, e.text]), [['user', 'first'], ['user', 'and this too'], ['agent', 'Both done.']]);
    assert.equal(session.interject([{ type: 'text', text: 'idle' }]), false, 'not without a running turn');
  });

  it('an agent that does not take messages mid-turn is not sent one', async () => {
    const { peer, session } = await setup();
    assert.equal(session.takesMessagesMidTurn, false);
    const turn = session.prompt([{ type: 'text', text: 'first' }]);
    const req = await peer.next();
    assert.equal(session.interject([{ type: 'text', text: 'no' }]), false);
    peer.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } });
    assert.equal(await turn, 'end_turn');
    assert.equal(session.state.userMessageCount, 1);
  });

  it('makes a permission request a state of its tool call, created from the request when never announced', async () => {
    const { peer, session } = await setup();
    void session.prompt([{ type: 'text', text: 'go' }]);
    await peer.next();
    peer.send({ jsonrpc: '2.0', id: 'perm-1', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'gem-1', title: 'Write a.txt', kind: 'edit' }, options } });
    await tick(10);
    const call = session.state.toolCalls.get('gem-1')!;
    assert.equal(call.title, 'Write a.txt');
    assert.deepEqual(call.permission?.options.map((o) => o.optionId), ['yes', 'no']);
    assert.equal(session.waitingPermissions().length, 1);
    assert.equal(session.answerPermission('gem-1', 'no'), true);
    const answer = await peer.next();
    assert.deepEqual(answer, { jsonrpc: '2.0', id: 'perm-1', result: { outcome: { outcome: 'selected', optionId: 'no' } } });
    assert.equal(call.permission, undefined);
    assert.equal(call.status, 'rejected');
    assert.equal(session.answerPermission('gem-1', 'yes'), false, 'a second answer is refused');
    // The agent's later "failed" does not hide that the user rejected it.
    peer.send(update({ sessionUpdate: 'tool_call_update', toolCallId: 'gem-1', status: 'failed' }));
    await tick(10);
    assert.equal(call.status, 'rejected');
  });

  it('cancel marks open tool calls cancelled, answers waiting prompts cancelled, and ends with cancelled', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    const req = await peer.next();
    peer.send(update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run', status: 'in_progress' }));
    peer.send(update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Done', status: 'completed' }));
    peer.send({ jsonrpc: '2.0', id: 9, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'c', title: 'Delete' }, options } });
    await tick(10);
    await session.cancel();
    assert.equal(session.state.turn, 'cancelling');
    const sent = [await peer.next(), await peer.next()];
    assert.ok(sent.some((m) => m.method === 'session/cancel'));
    assert.ok(sent.some((m) => m.id === 9 && JSON.stringify(m.result) === '{"outcome":{"outcome":"cancelled"}}'));
    assert.equal(session.state.toolCalls.get('a')!.status, 'cancelled');
    assert.equal(session.state.toolCalls.get('b')!.status, 'completed');
    assert.equal(session.state.toolCalls.get('c')!.permissionAnswer, 'cancelled');
    assert.equal(session.answerPermission('c', 'yes'), false, 'a late click does nothing');
    // An agent that errors instead of answering cancelled still ends as cancelled.
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32603, message: 'aborted' } });
    assert.equal(await turn, 'cancelled');
    assert.equal(session.state.turn, 'idle');
  });

  it('owns its prompts: says when one waits and when it is settled; a withdrawn request or one with no options is cancelled', async () => {
    const { peer, session } = await setup();
    const seen: string[] = [];
    session.state.onChange((c) => (c.type === 'permission-requested' || c.type === 'permission-settled') && seen.push(`${c.type}:${c.toolCallId}`));
    void session.prompt([{ type: 'text', text: 'go' }]);
    await peer.next();
    peer.send({ jsonrpc: '2.0', id: 'w', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'w' }, options } });
    await tick(10);
    assert.equal(session.waitingPermissionCount, 1);
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'w' } });
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', id: 'w', result: { outcome: { outcome: 'cancelled' } } });
    assert.equal(session.waitingPermissionCount, 0);
    assert.equal(session.answerPermission('w', 'yes'), false);
    peer.send({ jsonrpc: '2.0', id: 'e', method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'e' }, options: [] } });
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', id: 'e', result: { outcome: { outcome: 'cancelled' } } });
    assert.deepEqual(seen, ['permission-requested:w', 'permission-settled:w']);
  });

  it('stops waiting for an agent that ignores the cancel, within the grace period', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    const req = await peer.next();
    const started = Date.now();
    await session.cancel();
    assert.equal(await turn, 'cancelled');
    const waited = Date.now() - started;
    assert.ok(waited >= 1900 && waited < 4000, `waited ${waited} ms`);
    assert.equal(session.state.turn, 'idle');
    const notes = session.state.entries.filter((e) => e.kind === 'error').map((e) => (e.kind === 'error' ? e.message : ''));
    assert.match(notes[0], /did not stop within 2 s/);
    // The agent's late answer changes nothing.
    const entries = session.state.entries.length;
    peer.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } });
    await tick(20);
    assert.equal(session.state.turn, 'idle');
    assert.equal(session.state.entries.length, entries);
  });

  it('records an agent error in the transcript as retryable and rethrows it', async () => {
    const { peer, session } = await setup();
    const turn = session.prompt([{ type: 'text', text: 'go' }]);
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32603, message: 'model overloaded', data: { retryAfter: 3 } } });
    await assert.rejects(turn, /model overloaded/);
    const last = session.state.entries[session.state.entries.length - 1];
    assert.ok(last.kind === 'error' && last.retryable && last.detail?.includes('retryAfter'));
    assert.equal(session.state.turn, 'idle');
  });

  it('refuses a second prompt while a turn runs', async () => {
    const { session } = await setup();
    void session.prompt([{ type: 'text', text: 'one' }]);
    await assert.rejects(session.prompt([{ type: 'text', text: 'two' }]), /already running/);
  });

  it('sets modes, config options (select and boolean) and the legacy model through the agent', async () => {
    const { peer, session } = await setup();
    session.applySetup({
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
      models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'M1' }, { modelId: 'm2', name: 'M2' }] },
    });
    const mode = session.setMode('code');
    const modeReq = await peer.next();
    assert.deepEqual(modeReq.params, { sessionId: 's1', modeId: 'code' });
    peer.send({ jsonrpc: '2.0', id: modeReq.id, result: null });
    await mode;
    assert.equal(session.state.modes?.currentModeId, 'code');
    const flag = session.setConfigOption('fast', true);
    const flagReq = await peer.next();
    assert.deepEqual(flagReq.params, { sessionId: 's1', configId: 'fast', type: 'boolean', value: true });
    peer.send({ jsonrpc: '2.0', id: flagReq.id, result: { configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: true }] } });
    await flag;
    assert.equal(session.state.configOptions[0].currentValue, true);
    const model = session.setModel('m2');
    const modelReq = await peer.next();
    assert.equal(modelReq.method, 'session/set_model');
    peer.send({ jsonrpc: '2.0', id: modelReq.id, result: {} });
    await model;
    assert.equal(session.state.models?.currentModelId, 'm2');
  });

  it('parses updates through the schema before they reach the state', () => {
    assert.equal(SessionUpdate.parse({ sessionUpdate: 'usage_update', used: 'lots' }).sessionUpdate, 'unknown');
  });
});
