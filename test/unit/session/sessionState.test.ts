import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { SessionState } from '../../../src/session/sessionState';
import type { SessionChange } from '../../../src/session/state';

function feed(state: SessionState, ...raw: Record<string, unknown>[]): void {
  for (const update of raw) state.apply(SessionUpdate.parse(update));
}
const text = (t: string) => ({ type: 'text', text: t });
const userText = (t: string) => ({ type: 'text' as const, text: t });

describe('session state reducer', () => {
  it('groups message chunks by messageId, else by consecutive role', () => {
    const s = new SessionState();
    feed(
      s,
      { sessionUpdate: 'agent_thought_chunk', content: text('hmm ') },
      { sessionUpdate: 'agent_thought_chunk', content: text('ok') },
      { sessionUpdate: 'agent_message_chunk', content: text('Hel') },
      { sessionUpdate: 'agent_message_chunk', content: text('lo') },
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' },
      { sessionUpdate: 'agent_message_chunk', content: text('After') },
      { sessionUpdate: 'agent_message_chunk', content: text('A1'), messageId: 'm1' },
      { sessionUpdate: 'agent_message_chunk', content: text('B1'), messageId: 'm2' },
      { sessionUpdate: 'agent_message_chunk', content: text('A2'), messageId: 'm1' },
    );
    const messages = s.entries.filter((e) => e.kind === 'message').map((e) => (e.kind === 'message' ? [e.role, e.text] : []));
    assert.deepEqual(messages, [
      ['thought', 'hmm ok'],
      ['agent', 'Hello'],
      ['agent', 'After'],
      ['agent', 'A1A2'],
      ['agent', 'B1'],
    ]);
  });

  it('toolCallOf: a listener sees a tool call from its announcement on, in the state it was announced in', () => {
    // Codex announces an apply_patch `in_progress` and has written the file by the next update (`completed`):
    // the edits tracker must see the `in_progress` one, which only adds an entry (no `tool-call` change).
    const s = new SessionState();
    const seen: string[] = [];
    s.onChange((change) => {
      const call = s.toolCallOf(change);
      if (call) seen.push(`${change.type}:${call.toolCallId}:${call.status}`);
    });
    const diff = { type: 'diff', path: '/w/a.ts', oldText: 'a\n', newText: 'b\n' };
    feed(
      s,
      { sessionUpdate: 'agent_message_chunk', content: text('editing') },
      { sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Edit /w/a.ts', kind: 'edit', status: 'in_progress', content: [diff] },
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_2', status: 'completed' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'never-announced', status: 'completed' },
    );
    assert.deepEqual(seen, ['entry-added:call_2:in_progress', 'tool-call:call_2:completed', 'entry-added:never-announced:completed']);
  });

  it('keeps non-text content blocks on the message, unknown ones included', () => {
    const s = new SessionState();
    feed(
      s,
      { sessionUpdate: 'agent_message_chunk', content: text('See ') },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', z: 1 } },
    );
    const entry = s.entries[0];
    assert.ok(entry.kind === 'message');
    assert.deepEqual(entry.blocks.map((b) => b.type), ['resource_link', 'unknown']);
  });

  it('creates tool calls, patches only present fields, replaces content and locations', () => {
    const s = new SessionState();
    feed(
      s,
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit a.ts',
        kind: 'edit',
        content: [{ type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' }],
        locations: [{ path: '/w/a.ts', line: 3 }],
        rawInput: { file: 'a.ts' },
      },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' },
    );
    let call = s.toolCalls.get('t1')!;
    assert.equal(call.status, 'in_progress');
    assert.equal(call.title, 'Edit a.ts');
    assert.equal(call.content.length, 1);
    assert.deepEqual(call.rawInput, { file: 'a.ts' });
    feed(s, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [], locations: [{ path: '/w/b.ts' }], rawOutput: 'ok', _meta: { claudeCode: { x: 1 } } });
    call = s.toolCalls.get('t1')!;
    assert.equal(call.status, 'completed');
    assert.deepEqual(call.content, []);
    assert.deepEqual(call.locations.map((l) => l.path), ['/w/b.ts']);
    assert.equal(call.rawOutput, 'ok');
    assert.deepEqual(call.meta, { claudeCode: { x: 1 } });
    assert.equal(s.entries.filter((e) => e.kind === 'tool').length, 1);
  });

  it('creates the entry for a tool_call_update whose id was never announced', () => {
    const s = new SessionState();
    feed(s, { sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'completed', title: 'Ran tests' });
    const call = s.toolCalls.get('ghost')!;
    assert.equal(call.title, 'Ran tests');
    assert.equal(call.status, 'completed');
    assert.equal(call.announcedLate, true);
    assert.deepEqual(s.entries.map((e) => e.kind), ['tool']);
  });

  it('replaces the plan whole on each update', () => {
    const s = new SessionState();
    feed(s, { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { content: 'b', priority: 'low', status: 'pending' }] });
    feed(s, { sessionUpdate: 'plan', entries: [{ content: 'c', priority: 'medium', status: 'in_progress' }] });
    assert.deepEqual(s.plan.map((e) => e.content), ['c']);
  });

  it('tracks commands, modes (both update shapes), config options and the mode option', () => {
    const s = new SessionState();
    s.setModes({ currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] }, undefined);
    s.setConfigOptions([{ id: 'mode', name: 'Mode', type: 'select', category: 'mode', currentValue: 'ask', options: { kind: 'flat', options: [] } }]);
    feed(s, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search', input: { hint: 'query' } }] });
    feed(s, { sessionUpdate: 'current_mode_update', modeId: 'code' });
    assert.equal(s.modes?.currentModeId, 'code');
    assert.equal(s.configOptions[0].currentValue, 'code');
    feed(s, { sessionUpdate: 'current_mode_update', currentModeId: 'ask' });
    assert.equal(s.modes?.currentModeId, 'ask');
    feed(s, { sessionUpdate: 'config_option_update', configOptions: [{ id: 'mode', name: 'Mode', type: 'select', category: 'mode', currentValue: 'code', options: [] }] });
    assert.equal(s.modes?.currentModeId, 'code');
    assert.equal(s.commands[0].input?.hint, 'query');
  });

  it('applies session info as a patch: absent keeps, null clears', () => {
    const s = new SessionState();
    feed(s, { sessionUpdate: 'session_info_update', title: 'Fix bug', updatedAt: '2026-11-29T10:00:00Z' });
    feed(s, { sessionUpdate: 'session_info_update', updatedAt: '2026-11-29T11:00:00Z' });
    assert.deepEqual(s.info, { title: 'Fix bug', updatedAt: '2026-11-29T11:00:00Z' });
    feed(s, { sessionUpdate: 'session_info_update', title: null });
    assert.equal(s.info.title, undefined);
  });

  it('records usage with cost, notices, and unknown kinds as entries', () => {
    const s = new SessionState();
    feed(
      s,
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.12, currency: 'USD' } },
      { sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited' },
      { sessionUpdate: 'notice', severity: 'sparkly', title: 'Custom severity kept' },
      { sessionUpdate: 'subagent_update', child: 'x' },
    );
    assert.deepEqual(s.usage, { used: 1200, size: 200000, cost: { amount: 0.12, currency: 'USD' } });
    assert.deepEqual(s.entries.map((e) => e.kind), ['notice', 'notice', 'unknown']);
    const unknown = s.entries[2];
    assert.ok(unknown.kind === 'unknown' && unknown.update.original === 'subagent_update');
    assert.ok(s.entries[1].kind === 'notice' && s.entries[1].severity === 'sparkly');
  });

  it('emits a change naming what changed', () => {
    const s = new SessionState();
    const changes: SessionChange[] = [];
    s.onChange((c) => changes.push(c));
    feed(
      s,
      { sessionUpdate: 'agent_message_chunk', content: text('a') },
      { sessionUpdate: 'agent_message_chunk', content: text('b') },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' },
      { sessionUpdate: 'plan', entries: [] },
    );
    assert.deepEqual(changes, [
      { type: 'entry-added', index: 0 },
      { type: 'entry-changed', index: 0, appended: 'b' },
      { type: 'entry-added', index: 1 },
      { type: 'tool-call', toolCallId: 't' },
      { type: 'plan' },
    ]);
  });

  it('appends a chunk for an earlier message by id after many entries, and after a restore', () => {
    const s = new SessionState();
    for (let i = 0; i < 1000; i++) feed(s, { sessionUpdate: 'agent_message_chunk', content: text(`m${i} `), messageId: `m${i}` }, { sessionUpdate: 'agent_thought_chunk', content: text('t'), messageId: `m${i}` });
    feed(s, { sessionUpdate: 'agent_message_chunk', content: text('late'), messageId: 'm3' }, { sessionUpdate: 'agent_thought_chunk', content: text('!'), messageId: 'm3' });
    assert.equal(s.entries.length, 2000);
    assert.deepEqual([s.entries[6], s.entries[7]].map((e) => e.kind === 'message' && [e.role, e.text]), [['agent', 'm3 late'], ['thought', 't!']]);

    const restored = new SessionState();
    restored.restore({ entries: s.entries.map((e) => ({ ...e })), toolCalls: [], plan: [] });
    feed(restored, { sessionUpdate: 'agent_message_chunk', content: text('+'), messageId: 'm10' }, { sessionUpdate: 'agent_message_chunk', content: text('new'), messageId: 'x' });
    const m10 = restored.entries[20];
    assert.equal(m10.kind === 'message' && m10.text, 'm10 +');
    assert.equal(restored.entries.length, 2001);
    assert.equal(restored.entries[2000].id, 2001);
  });

  it('restores a transcript of 200,000 entries (no spread of them as arguments)', () => {
    const s = new SessionState();
    const entries = Array.from({ length: 200_000 }, (_, i) => ({ kind: 'turn-end' as const, id: i + 1, stopReason: 'end_turn' }));
    s.restore({ entries, toolCalls: [], plan: [] });
    assert.equal(s.entries.length, 200_000);
    s.addTurnEnd('end_turn');
    assert.equal(s.entries[200_000].id, 200_001);
  });

  it('a refusal marks the refused user message (only that one) as out of the agent’s context, and says it changed', () => {
    const s = new SessionState();
    s.addUserMessage([userText('one')]);
    s.addTurnEnd('end_turn');
    s.addUserMessage([userText('two')]);
    feed(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I cannot help with that.' } });
    const changes: SessionChange[] = [];
    s.onChange((c) => changes.push(c));
    s.addTurnEnd('refusal');
    const users = s.entries.filter((e) => e.kind === 'message' && e.role === 'user') as Extract<(typeof s.entries)[number], { kind: 'message' }>[];
    assert.deepEqual(users.map((e) => [e.text, e.refused]), [['one', undefined], ['two', true]]);
    assert.deepEqual(changes[0], { type: 'entry-changed', index: s.entries.indexOf(users[1]) });
    s.addUserMessage([userText('three')]);
    s.addTurnEnd('max_tokens');
    assert.equal((s.entries.at(-2) as { refused?: true }).refused, undefined, 'other stop reasons mark nothing');
  });

  it('keeps the turn’s token counts on its turn-end entry', () => {
    const s = new SessionState();
    s.addUserMessage([userText('one')]);
    s.addTurnEnd('end_turn', { input: 20, output: 10 });
    s.addTurnEnd('end_turn');
    assert.deepEqual(s.entries.slice(1).map((e) => (e.kind === 'turn-end' ? e.tokens : 'not a turn end')), [{ input: 20, output: 10 }, undefined]);
  });

  it('says what happened to turns: started with its index, ended with the stop reason or none when it failed', () => {
    const s = new SessionState();
    const changes: SessionChange[] = [];
    s.onChange((c) => changes.push(c));
    s.addUserMessage([userText('one')]);
    assert.equal(s.beginTurn(), 0);
    assert.throws(() => s.beginTurn(), /already running/);
    s.cancellingTurn();
    s.addTurnEnd('cancelled');
    s.endTurn('cancelled');
    s.addUserMessage([userText('two')]);
    assert.equal(s.beginTurn(), 1);
    assert.equal(s.runningTurn, 1);
    s.endTurn();
    s.endTurn();
    assert.equal(s.runningTurn, undefined);
    const meaning = changes.filter((c) => c.type === 'turn-started' || c.type === 'turn-ended');
    assert.deepEqual(meaning, [
      { type: 'turn-started', index: 0 },
      { type: 'turn-ended', index: 0, stopReason: 'cancelled' },
      { type: 'turn-started', index: 1 },
      { type: 'turn-ended', index: 1 },
    ]);
    assert.deepEqual(
      changes.filter((c) => c.type === 'turn').length,
      5,
      'running, cancelling, idle, running, idle',
    );
  });

  it('a restored transcript is one reset; its user messages count for the next turn index', () => {
    const s = new SessionState();
    const changes: SessionChange[] = [];
    s.onChange((c) => changes.push(c));
    s.restore({
      entries: [
        { kind: 'message', id: 1, role: 'user', text: 'a', blocks: [] },
        { kind: 'turn-end', id: 2, stopReason: 'end_turn' },
        { kind: 'message', id: 3, role: 'user', text: 'b', blocks: [] },
      ],
      toolCalls: [],
      plan: [],
    });
    assert.deepEqual(changes, [{ type: 'reset' }]);
    s.addUserMessage([userText('c')]);
    assert.equal(s.beginTurn(), 2);
  });

  it('removes entries from an index on, with their tool calls, and says which range went', () => {
    const s = new SessionState();
    s.addUserMessage([userText('keep')]);
    feed(s, { sessionUpdate: 'agent_message_chunk', content: text('x'), messageId: 'm1' }, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' });
    s.addUserMessage([userText('drop')]);
    const changes: SessionChange[] = [];
    s.onChange((c) => changes.push(c));
    s.removeEntriesFrom(1);
    s.removeEntriesFrom(5);
    assert.deepEqual(changes, [{ type: 'entries-removed', start: 1, end: 4 }]);
    assert.equal(s.entries.length, 1);
    assert.equal(s.toolCalls.has('t1'), false);
    feed(s, { sessionUpdate: 'agent_message_chunk', content: text('new'), messageId: 'm1' });
    assert.equal(s.entries.length, 2, 'a chunk for a removed message starts a new one');
    s.addUserMessage([userText('next')]);
    assert.equal(s.beginTurn(), 1, 'removed user messages no longer count');
  });

  it('dispose drops every listener', () => {
    const s = new SessionState();
    let calls = 0;
    s.onChange(() => calls++);
    s.dispose();
    s.addTurnEnd('end_turn');
    assert.equal(calls, 0);
  });
});
