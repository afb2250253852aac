import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { parsePersistedSession, serializeSession } from '../../../src/session/persistence';
import { SessionState } from '../../../src/session/sessionState';

describe('session persistence', () => {
  it('round-trips a transcript; open tool calls end as cancelled and waiting prompts are not kept', () => {
    const state = new SessionState();
    for (const u of [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } },
      { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run', status: 'in_progress' },
      { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Read', status: 'completed', content: [{ type: 'diff', path: '/w/x', oldText: 'a', newText: 'b' }] },
      { sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status: 'pending' }] },
      { sessionUpdate: 'session_info_update', title: 'Fix it' },
      { sessionUpdate: 'mystery', z: 1 },
    ]) state.apply(SessionUpdate.parse(u));
    state.toolCalls.get('a')!.permission = { requestId: 1, options: [] };
    const saved = JSON.parse(JSON.stringify(serializeSession(state, { key: 'k', agentId: 'fake', agentName: 'Fake', sessionId: 's1', cwd: '/w' })));
    const parsed = parsePersistedSession(saved)!;
    assert.ok(parsed);
    assert.equal(parsed.title, 'Fix it');
    const restored = new SessionState();
    restored.restore({ entries: parsed.entries, toolCalls: parsed.toolCalls, plan: parsed.plan as never[], title: parsed.title });
    assert.deepEqual(restored.entries.map((e) => e.kind), ['message', 'tool', 'tool', 'unknown']);
    assert.equal(restored.toolCalls.get('a')!.status, 'cancelled');
    assert.equal(restored.toolCalls.get('a')!.permission, undefined);
    assert.equal(restored.toolCalls.get('b')!.content.length, 1);
    assert.equal(restored.info.title, 'Fix it');
    // New entries continue after the saved ids.
    restored.apply(SessionUpdate.parse({ sessionUpdate: 'notice', severity: 'info', title: 'x' }));
    const ids = restored.entries.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('does not save the agent’s notices (live only), but keeps Howdah’s own notes', () => {
    const state = new SessionState();
    state.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }));
    state.apply(SessionUpdate.parse({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited, retrying' }));
    state.addNote('Forked by the agent from here');
    assert.deepEqual(state.entries.map((e) => e.kind), ['message', 'notice', 'notice'], 'both show while the session is open');
    const saved = parsePersistedSession(JSON.parse(JSON.stringify(serializeSession(state, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/w' }))))!;
    assert.deepEqual(saved.entries.map((e) => [e.kind, e.kind === 'notice' ? e.title : '']), [['message', ''], ['notice', 'Forked by the agent from here']]);
  });

  it('refuses damaged or foreign data instead of crashing', () => {
    assert.equal(parsePersistedSession(null), undefined);
    assert.equal(parsePersistedSession({ version: 99 }), undefined);
    const partial = parsePersistedSession({ version: 1, key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/w', updatedAt: 'x', entries: 'oops', toolCalls: [{}], plan: 3 });
    assert.deepEqual([partial?.entries, partial?.toolCalls, partial?.plan], [[], [], []]);
  });
});
