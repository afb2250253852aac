import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { commandOf, entryView, headerView, lineCounts, RAW_JSON_LIMIT, rawJson } from '../../../src/panel/viewModel';
import { SessionState } from '../../../src/session/sessionState';

const context = { status: 'ready' as const, sessions: [], capabilities: { image: false, embeddedContext: false } };

describe('panel view model', () => {
  it('counts added and removed lines of a diff, and a new file', () => {
    assert.deepEqual(lineCounts({ oldText: 'a\nb\nc\n', newText: 'a\nB\nc\nd\n' }), { added: 2, removed: 1 });
    assert.deepEqual(lineCounts({ oldText: null, newText: 'x\ny\n' }), { added: 2, removed: 0 });
    assert.deepEqual(lineCounts({ oldText: 'same', newText: 'same' }), { added: 0, removed: 0 });
    // A CRLF file read, LF text sent back with one line changed: one line, as the diff editor shows it.
    assert.deepEqual(lineCounts({ oldText: 'a\r\nb\r\nc\r\n', newText: 'a\nB\nc\n' }), { added: 1, removed: 1 });
  });

  it('finds the command of an execute call', () => {
    assert.equal(commandOf({ command: 'npm test' }), 'npm test');
    assert.equal(commandOf({ command: ['git', 'status'] }), 'git status');
    assert.equal(commandOf({ cmd: 'ls' }), 'ls');
    assert.equal(commandOf({ command: 'node', args: ['-e', "console.log('hi')"] }), "node -e 'console.log('\\''hi'\\'')'", 'terminal/create shape: args quoted as a shell reads them back');
    assert.equal(commandOf({ command: 'make', args: [] }), 'make');
    assert.equal(commandOf({ path: '/a' }), undefined);
    assert.equal(commandOf('npm test'), undefined);
  });

  it('caps raw JSON', () => {
    assert.equal(rawJson({ a: 1 }), '{\n  "a": 1\n}');
    assert.equal(rawJson(undefined), undefined);
    assert.ok(rawJson('x'.repeat(RAW_JSON_LIMIT * 2))!.length < RAW_JSON_LIMIT + 100);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(typeof rawJson(cyclic), 'string');
  });

  it('projects tool calls with permission, answer and diff content', () => {
    const state = new SessionState();
    state.apply(SessionUpdate.parse({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Edit', kind: 'edit', rawInput: { command: 'sed -i s/a/b/ f' },
      content: [{ type: 'diff', path: '/w/f', oldText: 'a\n', newText: 'b\n' }], locations: [{ path: '/w/f', line: 1 }] }));
    const call = state.toolCalls.get('tc')!;
    call.permission = { requestId: 3, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] };
    const view = entryView(state.entries[0], state, { get: () => undefined });
    assert.equal(view.kind, 'tool');
    if (view.kind !== 'tool') return;
    assert.deepEqual(view.tool.content, [{ type: 'diff', path: '/w/f', newFile: false, added: 1, removed: 1 }]);
    assert.equal(view.tool.command, 'sed -i s/a/b/ f');
    assert.deepEqual(view.tool.permission, { requestId: 3, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] });
    assert.deepEqual(view.tool.locations, [{ path: '/w/f', line: 1 }]);
  });

  it('shows a terminal reported only in _meta', () => {
    const state = new SessionState();
    state.apply(SessionUpdate.parse({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'ls', kind: 'execute', _meta: { terminal_info: { terminal_id: 't9' } } }));
    const view = entryView(state.entries[0], state, { get: (id) => (id === 't9' ? { output: 'a\n', truncated: false } : undefined) });
    assert.ok(view.kind === 'tool' && view.tool.content.some((c) => c.type === 'terminal' && c.output === 'a\n'));
  });

  it('offers legacy mode and model pickers only without config options of their category', () => {
    const state = new SessionState();
    state.setModes({ currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] }, { currentModelId: 'm', availableModels: [{ modelId: 'm', name: 'M' }] });
    let header = headerView(state, context);
    assert.equal(header.modes?.current, 'ask');
    assert.equal(header.models?.current, 'm');
    state.setConfigOptions([
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: { kind: 'flat', options: [{ value: 'ask', name: 'Ask' }] } },
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', options: { kind: 'grouped', groups: [{ group: 'g', name: 'G', options: [{ value: 'm', name: 'M' }] }] } },
    ]);
    header = headerView(state, context);
    assert.equal(header.modes, undefined);
    assert.equal(header.models, undefined);
    assert.deepEqual(header.configOptions[1], { type: 'select', id: 'model', name: 'Model', description: undefined, category: 'model', current: 'm', groups: [{ name: 'G', options: [{ value: 'm', name: 'M', description: undefined }] }] });
  });
});
