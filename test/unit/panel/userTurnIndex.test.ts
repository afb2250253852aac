import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { userTurnIndex } from '../../../src/panel/viewModel';
import { SessionState } from '../../../src/session/sessionState';

describe('panel: the turn a user message started (for "Restore files to before this message")', () => {
  it('counts the user messages before it, and knows no other entry', () => {
    const state = new SessionState();
    state.addUserMessage([{ type: 'text', text: 'first' }]);
    state.apply(SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'answer' } }));
    state.addTurnEnd('end_turn');
    state.addUserMessage([{ type: 'text', text: 'second' }]);
    state.apply(SessionUpdate.parse({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Edit', kind: 'edit' }));
    state.addUserMessage([{ type: 'text', text: 'third' }]);
    const ids = state.entries.map((e) => e.id);
    const users = state.entries.filter((e) => e.kind === 'message' && e.role === 'user').map((e) => e.id);
    assert.deepEqual(users.map((id) => userTurnIndex(state.entries, id)), [0, 1, 2]);
    assert.equal(userTurnIndex(state.entries, ids[1]), undefined, 'an agent message');
    assert.equal(userTurnIndex(state.entries, Math.max(...ids) + 1), undefined, 'no such entry');
  });
});
