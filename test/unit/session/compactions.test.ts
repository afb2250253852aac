import { strict as assert } from 'node:assert';
import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { parsePersistedSession, serializeSession } from '../../../src/session/persistence';
import { SessionState } from '../../../src/session/sessionState';
import { entryView } from '../../../src/panel/viewModel';

const apply = (state: SessionState, raw: Record<string, unknown>) => state.apply(SessionUpdate.parse(raw));
const compactions = (state: SessionState) =>
  state.entries.flatMap((e) => (e.kind === 'compaction' ? [{ id: e.compactionId, status: e.status, summary: e.summary.map((b) => (b.type === 'text' ? b.text : b.type)).join('|'), error: e.error }] : []));
const text = (t: string) => ({ type: 'text', text: t });

describe('context compaction in the timeline', () => {
  it('is advertised as session.compaction', () => {
    assert.deepEqual(buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'allow', terminalAuth: true }).session?.compaction, {});
  });

  it('one entry per compactionId, placed by its first update; chunks append while in progress; completed keeps it', () => {
    const state = new SessionState();
    apply(state, { sessionUpdate: 'agent_message_chunk', content: text('before') });
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' });
    apply(state, { sessionUpdate: 'agent_message_chunk', content: text('after') });
    apply(state, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('We fixed ') });
    apply(state, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('the parser.') });
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' });
    apply(state, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text(' late') });
    assert.deepEqual(state.entries.map((e) => e.kind), ['message', 'compaction', 'message']);
    assert.deepEqual(compactions(state), [{ id: 'c1', status: 'completed', summary: 'We fixed the parser.', error: undefined }]);
  });

  it('a concrete summary replaces, null and [] clear, an absent one leaves it; error patches the same way', () => {
    const state = new SessionState();
    apply(state, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c2', content: text('draft') });
    assert.deepEqual(compactions(state), [{ id: 'c2', status: 'in_progress', summary: 'draft', error: undefined }], 'a chunk for an unseen id creates it');
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'in_progress', summary: [text('final'), { type: 'resource_link', uri: 'file:///a', name: 'a' }] });
    assert.equal(compactions(state)[0].summary, 'final|resource_link');
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'in_progress' });
    assert.equal(compactions(state)[0].summary, 'final|resource_link', 'absent: unchanged');
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'in_progress', summary: [] });
    assert.equal(compactions(state)[0].summary, '');
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'failed', summary: null, error: 'context too large' });
    assert.deepEqual(compactions(state)[0], { id: 'c2', status: 'failed', summary: '', error: 'context too large' });
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c2', status: '_vendor_retrying', error: null });
    assert.deepEqual(compactions(state)[0], { id: 'c2', status: '_vendor_retrying', summary: '', error: undefined }, 'an unknown status is kept');
  });

  it('a bad summary value is ignored, not fatal; the view carries text, blocks and error', () => {
    const state = new SessionState();
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c3', status: 'cancelled', summary: 'not a list', error: 5 });
    assert.deepEqual(compactions(state), [{ id: 'c3', status: 'cancelled', summary: '', error: undefined }]);
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c4', status: 'completed', summary: [text('Sum'), { type: 'image', mimeType: 'image/png', data: 'AA==' }] });
    const view = entryView(state.entries[1], state, { get: () => undefined });
    assert.deepEqual(view, { kind: 'compaction', id: state.entries[1].id, status: 'completed', text: 'Sum', blocks: [{ type: 'image', mimeType: 'image/png', data: 'AA==' }] });
  });

  it('is saved with the transcript and keeps updating after a restore', () => {
    const state = new SessionState();
    apply(state, { sessionUpdate: 'compaction_update', compactionId: 'c5', status: 'in_progress', summary: [text('half')] });
    const saved = parsePersistedSession(serializeSession(state, { key: 'k', agentId: 'a', agentName: 'A', sessionId: 's', cwd: '/w' }))!;
    const restored = new SessionState();
    restored.restore({ entries: saved.entries, toolCalls: saved.toolCalls, plan: [] });
    apply(restored, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c5', content: text(' done') });
    assert.deepEqual(compactions(restored), [{ id: 'c5', status: 'in_progress', summary: 'half done', error: undefined }]);
  });
});
