import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { SessionState } from '../../../src/session/sessionState';
import { AgentTerminalOutputs, parseRawOutput } from '../../../src/terminals/agentOutput';
import { SessionTerminals } from '../../../src/terminals/sessionTerminals';
import { TerminalOutputModel } from '../../../src/terminals/terminalOutputModel';
import { TerminalRegistry } from '../../../src/terminals/terminalRegistry';
import { openSession, repoRoot, startFakeAgent } from '../support/fakeAgent';

const update = (u: unknown) => u as SessionUpdate;

describe('terminals: output of commands the agent runs itself', function () {
  this.timeout(20000);

  it('streams _meta.terminal_output for a terminal id we never created (fake agent over stdio)', async () => {
    const state = new SessionState();
    const model = new TerminalOutputModel(state);
    const changes: string[] = [];
    model.onDidChange((c) => changes.push(`${c.terminalId}<-${c.toolCallIds.join(',')}`));
    const run = startFakeAgent(path.join(repoRoot, 'test', 'integration', 'scenarios', 'terminals-agent-output.json'), {
      sessionUpdate: (n) => state.apply(n.update),
    });
    try {
      const sessionId = await openSession(run);
      await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    } finally {
      await run.connection.stop();
    }
    const claude = model.get('agent-term-1')!;
    assert.equal(claude.output, '✔ first test\n✖ second test\nprogress 100%\n', 'control sequences removed, CR applied');
    assert.deepEqual(claude.exit, { code: 1, signal: null });
    assert.equal(claude.running, false);
    assert.deepEqual(model.terminalIds('agent-run-1'), ['agent-term-1']);
    assert.ok(model.replaySource('agent-term-1')!.replay().includes('\x1b[32m✔ first test'), 'the terminal view keeps colours');

    const codexDelta = model.get('codex-call-2')!;
    assert.equal(codexDelta.output, 'building…\n');
    assert.deepEqual(codexDelta.exit, { code: 0, signal: null });

    assert.deepEqual(model.terminalIds('codex-exec-3'), ['tool:codex-exec-3'], 'rawOutput of a finished execute call');
    assert.equal(model.get('tool:codex-exec-3')!.output, 'total 2\na\nb\n');
    assert.ok(changes.some((c) => c === 'agent-term-1<-agent-run-1'), changes.join(' '));
    model.dispose();
  });

  it('follows a running agent terminal and tells when it ends', () => {
    const state = new SessionState();
    const model = new TerminalOutputModel(state);
    state.apply(update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'make', kind: 'execute', status: 'in_progress', _meta: { terminal_info: { terminal_id: 't' } } }));
    assert.equal(model.get('t')!.running, true);
    const source = model.replaySource('t')!;
    assert.equal(source.title, 'make');
    const seen: string[] = [];
    let ended: unknown = 'no';
    const following = source.follow((d) => seen.push(d), (s) => (ended = s));
    state.apply(update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output: { terminal_id: 't', data: 'one\n' } } }));
    // An update without a new piece (same meta object kept by the session) adds nothing.
    state.apply(update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'make all' }));
    state.apply(update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output: { terminal_id: 't', data: 'two\n' } } }));
    state.apply(update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed', _meta: { terminal_exit: { terminal_id: 't', exit_code: 0, signal: null } } }));
    assert.deepEqual(seen, ['one\n', 'two\n']);
    assert.deepEqual(ended, { exitCode: 0, signal: null });
    assert.equal(model.get('t')!.output, 'one\ntwo\n');
    following.dispose();
  });

  it('a tool call that ends without an exit report stops running; output without an id belongs to the call', () => {
    const outputs = new AgentTerminalOutputs();
    outputs.observe({ toolCallId: 'x', status: 'in_progress', meta: { terminal_output: { data: 'hi' } } });
    assert.equal(outputs.running('tool:x'), true);
    outputs.observe({ toolCallId: 'x', status: 'failed', meta: {} });
    assert.equal(outputs.running('tool:x'), false);
    assert.equal(outputs.tail('tool:x')!.exit, undefined);
  });

  it('rawOutput shapes: a string, aggregated/formatted output, stdout+stderr, exit codes', () => {
    assert.deepEqual(parseRawOutput('text'), { output: 'text' });
    assert.deepEqual(parseRawOutput({ formatted_output: 'f', exit_code: 2 }), { output: 'f', exit: { exitCode: 2, signal: null } });
    assert.deepEqual(parseRawOutput({ stdout: 'o', stderr: 'e', exitCode: 0 }), { output: 'oe', exit: { exitCode: 0, signal: null } });
    assert.equal(parseRawOutput({ unrelated: true }), undefined);
    assert.equal(parseRawOutput(42), undefined);
    // Streamed output wins over rawOutput (Codex sends both when it streams).
    const outputs = new AgentTerminalOutputs();
    outputs.observe({ toolCallId: 'y', kind: 'execute', status: 'in_progress', meta: { terminal_output: { terminal_id: 'y', data: 'live' } } });
    outputs.observe({ toolCallId: 'y', kind: 'execute', status: 'completed', rawOutput: { aggregated_output: 'live' } });
    assert.deepEqual(outputs.idsForToolCall('y'), ['y']);
  });

  it("OpenCode's bash call: output streamed as text content, the exit status only in rawOutput.metadata.exit", () => {
    // as opencode-ai 1.18.33 sends it for `sh -c 'echo howdah-agents-42; exit 3'`
    const content = [{ type: 'content', content: { type: 'text', text: 'howdah-agents-42\n' } }];
    const outputs = new AgentTerminalOutputs();
    outputs.observe({ toolCallId: 'call_7', kind: 'execute', status: 'in_progress', content });
    assert.deepEqual(outputs.idsForToolCall('call_7'), []);
    outputs.observe({
      toolCallId: 'call_7', kind: 'execute', status: 'completed', content,
      rawOutput: { output: 'howdah-agents-42\n', metadata: { output: 'howdah-agents-42\n', exit: 3, truncated: false } },
    });
    assert.deepEqual(outputs.tail('tool:call_7'), { output: 'howdah-agents-42\n', truncated: false, exit: { code: 3, signal: null }, running: false });
    // a command OpenCode stopped (timeout, abort) reports exit null: no status is made up
    assert.deepEqual(parseRawOutput({ output: 'partial', metadata: { output: 'partial', exit: null } }), { output: 'partial', exit: undefined });
  });

  it("Codex's command: a terminal announced in _meta with its exit there, the output only in rawOutput — one terminal shows both", () => {
    // as codex-acp 0.16.0 sends it to a client advertising _meta.terminal_output, for `sh -c 'echo howdah-agents-42; exit 3'`
    const state = new SessionState();
    const model = new TerminalOutputModel(state);
    state.apply(update({
      sessionUpdate: 'tool_call', toolCallId: 'call_3', title: "sh -c 'echo howdah-agents-42; exit 3'", kind: 'execute', status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 'call_3' }], _meta: { terminal_info: { terminal_id: 'call_3', cwd: '/w' } },
    }));
    assert.equal(model.get('call_3')!.running, true);
    state.apply(update({
      sessionUpdate: 'tool_call_update', toolCallId: 'call_3', status: 'failed',
      rawOutput: { call_id: 'call_3', stdout: 'howdah-agents-42\n', stderr: '', aggregated_output: 'howdah-agents-42\n', exit_code: 3, formatted_output: 'howdah-agents-42\n', status: 'failed' },
      _meta: { terminal_exit: { terminal_id: 'call_3', exit_code: 3, signal: null } },
    }));
    assert.deepEqual(model.terminalIds('call_3'), ['call_3'], 'no second terminal for the rawOutput');
    assert.deepEqual(model.get('call_3'), { output: 'howdah-agents-42\n', truncated: false, exit: { code: 3, signal: null }, running: false });
    model.dispose();
  });

  it('a terminal we started is shown live through the registry, with the tool calls that embed it', async function () {
    if (process.platform === 'win32') this.skip();
    const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-model-')));
    const registry = new TerminalRegistry();
    const terminals = new SessionTerminals({
      agentName: 'A',
      cwd,
      roots: [cwd],
      env: process.env,
      registry,
      ports: { settings: () => ({ mode: 'allow', deny: [], ask: [] }), confirm: async () => false },
    });
    const state = new SessionState();
    const model = new TerminalOutputModel(state, registry);
    const { terminalId } = await terminals.createTerminal({ sessionId: 's', command: process.execPath, args: ['-e', "console.log('live')"] }, new AbortController().signal);
    state.apply(update({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'node', kind: 'execute', content: [{ type: 'terminal', terminalId }] }));
    const changes: string[][] = [];
    model.onDidChange((c) => c.terminalId === terminalId && changes.push(c.toolCallIds));
    await terminals.waitForTerminalExit({ sessionId: 's', terminalId }, new AbortController().signal);
    await terminals.releaseTerminal({ sessionId: 's', terminalId });
    assert.deepEqual(model.terminalIds('run'), [terminalId]);
    assert.equal(model.get(terminalId)!.output, 'live\n', 'still shown after release');
    assert.deepEqual(model.get(terminalId)!.exit, { code: 0, signal: null });
    assert.ok(changes.length > 0 && changes.every((ids) => ids.includes('run')));
    assert.equal(model.replaySource(terminalId)!.kill, undefined, 'a released command cannot be stopped from its view');
    // The agent's rawOutput for the call it ran through our terminal repeats that terminal: shown once.
    state.apply(update({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed', rawOutput: { exitCode: 0, signal: null } }));
    assert.deepEqual(model.terminalIds('run'), [terminalId]);
    model.dispose();
    registry.dispose();
  });
});
