import { strict as assert } from 'node:assert';
import { diffShape, modeFromMessageText, turnTokens } from '../../../src/acp/compat';
import { PromptResult } from '../../../src/acp/schema/agentMethods';
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

  it('reads a turn’s token counts from the prompt result’s usage, else from Gemini’s _meta.quota, else none', () => {
    const usage = PromptResult.parse({ stopReason: 'end_turn', usage: { totalTokens: 30, inputTokens: 20, outputTokens: 10, thoughtTokens: 4, cachedReadTokens: null } });
    assert.deepEqual(turnTokens(usage), { input: 20, output: 10, thought: 4 });
    const gemini = PromptResult.parse({ stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 1200, output_tokens: 34 }, model_usage: [] } } });
    assert.deepEqual(turnTokens(gemini), { input: 1200, output: 34 });
    assert.equal(turnTokens(PromptResult.parse({ stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: '1200', output_tokens: 3 } } } })), undefined);
    assert.equal(turnTokens(PromptResult.parse({ stopReason: 'end_turn' })), undefined);
    // A malformed usage is dropped (lenient), not a failed turn.
    const bad = PromptResult.parse({ stopReason: 'end_turn', usage: { inputTokens: -1 } });
    assert.equal(bad.usage, undefined);
  });
});
