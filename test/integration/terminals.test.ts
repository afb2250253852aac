import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentConnection } from '../../src/acp/agentConnection';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import type { SessionUpdate } from '../../src/acp/schema/sessionUpdate';
import { SessionState } from '../../src/session/sessionState';
import { registerTerminals, type TerminalsService } from '../../src/terminals/agentTerminals';
import { processAlive } from '../../src/terminals/processTree';
import type { ConfirmRequest } from '../../src/terminals/sessionTerminals';
import { EXTENSION_ID, howdah, waitFor, workspaceFolder } from './helpers';

// The terminal/* handlers in a real extension host, driven by the fake agent over stdio. The suite builds its own
// connection and terminals service (from the extension's sources), so it can answer the questions a command asks
// and look at the VS Code terminals it creates; the last test goes through the extension's own sessions.

const extensionPath = () => vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
const scenarioPath = (name: string) => path.join(extensionPath(), 'test', 'integration', 'scenarios', `${name}.json`);

interface Run {
  state: SessionState;
  text(): string;
  prompt(): Promise<string>;
  stop(): Promise<void>;
}

describe('terminals in the extension host', function () {
  this.timeout(60000);
  const subscriptions: { dispose(): unknown }[] = [];
  let service: TerminalsService;
  let answer = true;
  const confirms: ConfirmRequest[] = [];
  let killAnswers = 0;
  const runs: Run[] = [];

  before(() => {
    service = registerTerminals({ subscriptions }, {
      confirm: async (request) => {
        confirms.push(request);
        return answer;
      },
      confirmKill: async () => {
        killAnswers++;
        return true;
      },
      graceMs: 500,
    });
  });

  afterEach(async () => {
    for (const run of runs.splice(0)) await run.stop();
    confirms.length = 0;
    answer = true;
  });

  after(() => {
    for (const s of subscriptions) s.dispose();
  });

  /** Starts the fake agent with a scenario and one session, terminals served by `service`. */
  async function start(scenario: string): Promise<Run> {
    const cwd = workspaceFolder().fsPath;
    const state = new SessionState();
    let sessionId = '';
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
    const terminals = service.forSession({ agentName: 'Fake Agent', cwd, roots: [cwd], env });
    const connection = new AgentConnection(
      { command: process.execPath, args: [path.join(extensionPath(), 'fixtures', 'fake-agent', 'agent.js'), scenarioPath(scenario)], env: { ELECTRON_RUN_AS_NODE: '1' }, cwd },
      {
        name: 'Fake Agent',
        clientInfo: { name: 'howdah-integration', version: '0.0.0' },
        capabilities: buildClientCapabilities({ readFiles: false, writeFiles: 'off', terminal: 'allow', terminalAuth: false }),
        handlers: {
          sessionUpdate: (n) => state.apply(n.update as SessionUpdate),
          requestPermission: async () => ({ outcome: 'cancelled' }),
          ...terminals,
        },
      },
    );
    await connection.start();
    sessionId = (await connection.acp.call('newSession', { cwd, mcpServers: [] })).sessionId;
    const run: Run = {
      state,
      text: () => state.entries.map((e) => (e.kind === 'message' && e.role === 'agent' ? e.text : '')).join(''),
      prompt: async () => (await connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason,
      stop: async () => {
        await terminals.dispose();
        await connection.stop();
      },
    };
    runs.push(run);
    return run;
  }

  it('create/output/wait/kill/release round trips, each command mirrored in a VS Code terminal', async () => {
    const before = new Set(vscode.window.terminals);
    const run = await start('terminals-basic');
    assert.equal(await run.prompt(), 'end_turn', run.text());
    assert.ok(run.text().includes(`shell said: one\nTWO\n`), run.text());
    const created = vscode.window.terminals.filter((t) => !before.has(t)).map((t) => t.name);
    assert.ok(created.some((n) => n.startsWith('echo one && echo two')), `terminals: ${created.join(' | ')}`);
    assert.ok(created.length >= 5, `one terminal per command: ${created.join(' | ')}`);
    assert.equal(confirms.length, 0);
  });

  it('kill ends a process that ignores SIGTERM and a shell with its children: none left', async () => {
    const run = await start('terminals-kill');
    assert.equal(await run.prompt(), 'end_turn', run.text());
    assert.match(run.text(), /stubborn: SIGKILL/);
    assert.match(run.text(), /tree: SIGTERM/);
    const pids = [...run.text().matchAll(/(?:child|pid):(\d+)/g)].map((m) => Number(m[1]));
    assert.equal(pids.length, 4, run.text());
    await waitFor(`processes ${pids.join(', ')} to be gone`, () => pids.every((p) => !processAlive(p)), 5000);
  });

  it('10 MB of output under a 64 KB limit: truncated, tail kept', async () => {
    const run = await start('terminals-flood');
    assert.equal(await run.prompt(), 'end_turn', run.text());
    const m = /truncated=true chars=(\d+)/.exec(run.text());
    assert.ok(m, run.text());
    // Lines of 511 two-byte characters and a newline: 64 KB is a little over 32 K characters.
    assert.ok(Number(m[1]) > 32000 && Number(m[1]) < 33000, m[1]);
  });

  it('a denied command never asks and never runs; an asked command waits for the answer', async () => {
    answer = false;
    const declined = await start('terminals-policy');
    assert.equal(await declined.prompt(), 'end_turn', declined.text());
    assert.match(declined.text(), /denied: Howdah refused to run rm -rf \//);
    assert.match(declined.text(), /asked: The user declined/);
    assert.equal(confirms.length, 1);
    assert.equal(confirms[0].commandLine, 'rm -rf ./.howdah-missing-folder');
    confirms.length = 0;
    answer = true;
    const allowed = await start('terminals-policy');
    assert.equal(await allowed.prompt(), 'end_turn', allowed.text());
    assert.match(allowed.text(), /asked: howdah-term-\d+/);
    assert.equal(confirms.length, 1);
  });

  it('_meta.terminal_output for a terminal id we never created: tail, exit status, and Open in terminal', async () => {
    const run = await start('terminals-agent-output');
    const model = service.outputModel(run.state);
    subscriptions.push(model);
    assert.equal(await run.prompt(), 'end_turn', run.text());
    const tail = model.get('agent-term-1');
    assert.ok(tail, 'the agent terminal is known');
    assert.equal(tail.output, '✔ first test\n✖ second test\nprogress 100%\n');
    assert.deepEqual(tail.exit, { code: 1, signal: null });
    assert.equal(model.get('tool:codex-exec-3')?.output, 'total 2\na\nb\n');
    const before = new Set(vscode.window.terminals);
    assert.equal(service.open('agent-term-1', model), true);
    const opened = await waitFor('the replay terminal', () => vscode.window.terminals.find((t) => !before.has(t)));
    assert.equal(opened.name, 'npm test');
    assert.equal(service.open('never-heard-of', model), false);
  });

  it('Ctrl+C in the terminal asks, then stops the command', async () => {
    const cwd = workspaceFolder().fsPath;
    const terminals = service.forSession({ agentName: 'Test', cwd, roots: [cwd], env: process.env });
    runs.push({ state: new SessionState(), text: () => '', prompt: async () => '', stop: () => terminals.dispose() });
    const before = new Set(vscode.window.terminals);
    const signal = new AbortController().signal;
    const { terminalId } = await terminals.createTerminal({ sessionId: 's', command: 'sleep 120' }, signal);
    const terminal = await waitFor('its terminal', () => vscode.window.terminals.find((t) => !before.has(t)));
    assert.equal(terminal.name, 'sleep 120');
    const asked = killAnswers;
    terminal.sendText('\x03', false);
    const status = await terminals.waitForTerminalExit({ sessionId: 's', terminalId }, signal);
    assert.equal(killAnswers, asked + 1, 'it asked first');
    assert.deepEqual(status, { exitCode: null, signal: 'SIGTERM' });
  });

  it("through the extension's own sessions: the fake agent's terminal scenarios (agents fake-terminal, test-terminals-basic)", async function () {
    const api = await howdah();
    try {
      const key = await api.newSession('fake-terminal');
      const stop = await api.prompt(key, 'run it').catch((e: Error) => e.message);
      const text = JSON.stringify(api.snapshot(key));
      if (/-32601|Method not found/.test(stop + text)) this.skip(); // the session manager does not offer terminals yet
      assert.equal(stop, 'end_turn', text.slice(0, 400));
      assert.match(text, /Exit code 0, output: hello/);
      const basic = await api.newSession('test-terminals-basic');
      assert.equal(await api.prompt(basic, 'go'), 'end_turn', JSON.stringify(api.snapshot(basic)).slice(0, 400));
    } finally {
      await api.stopAll();
    }
  });
});
