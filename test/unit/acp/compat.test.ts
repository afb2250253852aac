import { strict as assert } from 'node:assert';
import { diffShape, modeFromMessageText } from '../../../src/acp/compat';
import { SessionNotification } from '../../../src/acp/schema/sessionUpdate';

describe('compatibility shims', () => {
  it('turns Gemini\'s [MODE_UPDATE] message text into a mode change', () => {
    assert.equal(modeFromMessageText('[MODE_UPDATE] autoEdit'), 'autoEdit');
    assert.equal(modeFromMessageText('We discussed [MODE_UPDATE] x in prose'), undefined);
    const parsed = SessionNotification.parse({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '[MODE_UPDATE] autoEdit' } } });
    assert.deepEqual(parsed.update, { sessionUpdate: 'current_mode_update', currentModeId: 'autoEdit', _meta: undefined });
    const prose = SessionNotification.parse({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } } });
    assert.equal(prose.update.sessionUpdate, 'agent_message_chunk');
  });

  it('tells whole-file diffs from fragments and creations', () => {
    assert.equal(diffShape({ oldText: null, newText: 'x' }, undefined), 'created');
    assert.equal(diffShape({ newText: 'x' }, 'anything'), 'created');
    assert.equal(diffShape({ oldText: 'a\nb\n', newText: 'a\nc\n' }, 'a\nb\n'), 'whole-file');
    assert.equal(diffShape({ oldText: 'a\nb\n', newText: 'a\nc\n' }, 'a\r\nb\r\n'), 'whole-file');
    assert.equal(diffShape({ oldText: 'b\n', newText: 'c\n' }, 'a\nb\n'), 'fragment');
    assert.equal(diffShape({ oldText: 'b\n', newText: 'c\n' }, undefined), 'fragment');
  });
});
