import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClientHandlers } from '../../../src/acp/clientHandlers';
import { RpcError } from '../../../src/acp/errors';
import { approvedCommandLines, SessionTerminals, type ConfirmRequest, type TerminalSettings } from '../../../src/terminals/sessionTerminals';
import { TerminalRegistry } from '../../../src/terminals/terminalRegistry';
import { eventually, isAlive, openSession, repoRoot, startFakeAgent, textOf, type FakeAgentRun } from '../support/fakeAgent';

const scenario = (name: string) => path.join(repoRoot, 'test', 'integration', 'scenarios', `${name}.json`);
const never = new AbortController().signal;

interface Harness {
  terminals: SessionTerminals;
  registry: TerminalRegistry;
  confirms: ConfirmRequest[];
  shown: string[];
  settings: TerminalSettings;
}

function harness(cwd: string, options: { answer?: boolean; approved?: string[]; settings?: Partial<TerminalSettings> } = {}): Harness {
  const registry = new TerminalRegistry();
  const h: Harness = {
    registry,
    confirms: [],
    shown: [],
    settings: { mode: 'allow', deny: [], ask: [], ...options.settings },
    terminals: undefined as unknown as SessionTerminals,
  };
  h.terminals = new SessionTerminals({
    agentName: 'Fake Agent',
    cwd,
    roots: [cwd],
    env: process.env,
    registry,
    graceMs: 400,
    ports: {
      settings: () => h.settings,
      confirm: async (request) => {
        h.confirms.push(request);
        return options.answer ?? false;
      },
      show: (t) => h.shown.push(t.id),
      approvedCommands: () => options.approved ?? [],
    },
  });
  return h;
}

/** Runs one prompt of a scenario with terminals served by a SessionTerminals; returns the agent's text. */
async function play(name: string, options: Parameters<typeof harness>[1] = {}): Promise<{ text: string; h: Harness; run: FakeAgentRun }> {
  // The harness needs the agent's cwd, known only once the agent is set up: the handlers look it up when called.
  let h: Harness | undefined;
  const run = startFakeAgent(scenario(name), forward(() => h!));
  h = harness(fs.realpathSync(run.cwd), options);
  runs.push({ run, h });
  const sessionId = await openSession(run);
  const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
  assert.equal(result.stopReason, 'end_turn');
  return { text: textOf(run.updates), h, run };
}

function forward(get: () => Harness): Partial<ClientHandlers> {
  return {
    createTerminal: (p, s) => get().terminals.createTerminal(p, s),
    terminalOutput: (p) => get().terminals.terminalOutput(p),
    waitForTerminalExit: (p, s) => get().terminals.waitForTerminalExit(p, s),
    killTerminal: (p) => get().terminals.killTerminal(p),
    releaseTerminal: (p) => get().terminals.releaseTerminal(p),
  };
}

const runs: { run: FakeAgentRun; h: Harness }[] = [];

describe('terminals: terminal/* handlers against the fake agent', function () {
  this.timeout(30000);
  if (process.platform === 'win32') return;

  afterEach(async () => {
    for (const { run, h } of runs.splice(0)) {
      await h.terminals.dispose();
      h.registry.dispose();
      await run.connection.stop();
    }
  });

  it('round trips: argv, exit codes, a shell line, env, kill after exit, release, cwd outside the workspace', async () => {
    const { text, run, h } = await play('terminals-basic');
    assert.ok(text.includes(`shell said: one\nTWO\n${fs.realpathSync(run.cwd)}\n`), text);
    assert.equal(h.confirms.length, 0, 'nothing asked');
    assert.equal(h.shown.length, 5, 'each started command is shown');
    assert.deepEqual(h.terminals.ids(), [], 'every terminal was released');
  });

  it('kill: a process ignoring SIGTERM gets SIGKILL; a shell and its children all end', async () => {
    const { text } = await play('terminals-kill');
    assert.match(text, /stubborn: SIGKILL/);
    assert.match(text, /tree: SIGTERM/);
    const pids = [...text.matchAll(/(?:child|pid):(\d+)/g)].map((m) => Number(m[1]));
    assert.equal(pids.length, 4, text);
    assert.ok(await eventually(() => pids.every((p) => !isAlive(p)), 3000), `still alive: ${pids.filter(isAlive).join(', ')}`);
  });

  it('10 MB of two-byte characters under a 64 KB limit: the tail, cut on a character boundary', async () => {
    const { text, run } = await play('terminals-flood');
    assert.match(text, /truncated=true/);
    // What the agent received (`in`): our answer to its terminal/output.
    const output = run.agentLog().find((l) => l.dir === 'in' && (l.msg.result as { output?: string } | undefined)?.output?.includes('END-OF-FLOOD'));
    const kept = (output!.msg.result as { output: string }).output;
    const bytes = Buffer.byteLength(kept, 'utf8');
    assert.ok(bytes <= 65536 && bytes >= 65536 - 2, `${bytes} bytes`);
    assert.ok(!kept.includes('\ufffd'), 'no broken character');
    assert.ok(kept.endsWith('END-OF-FLOOD\n'));
  });

  it('policy: refused without asking; asked and declined; nothing else asked', async () => {
    const { text, h } = await play('terminals-policy', { answer: false });
    assert.match(text, /denied: Howdah refused to run rm -rf \/: it deletes/);
    assert.match(text, /asked: The user declined to run rm -rf \.\/\.howdah-missing-folder/);
    assert.equal(h.confirms.length, 1, 'only the asked command asked');
    assert.equal(h.confirms[0].commandLine, 'rm -rf ./.howdah-missing-folder');
    assert.match(h.confirms[0].reasons.join(), /deletes directories recursively/);
  });

  it('policy: asked and allowed runs; allowed earlier through the agent prompt does not ask again', async () => {
    const allowed = await play('terminals-policy', { answer: true });
    assert.match(allowed.text, /asked: howdah-term-\d+/);
    assert.equal(allowed.h.confirms.length, 1);
    const approved = await play('terminals-policy', { approved: ['rm -rf   ./.howdah-missing-folder'] });
    assert.match(approved.text, /asked: howdah-term-\d+/);
    assert.equal(approved.h.confirms.length, 0);
  });

  it('howdah.terminal = ask asks for every command, with the full command line', async () => {
    const { h } = await play('terminals-policy', { answer: true, settings: { mode: 'ask' } });
    assert.equal(h.confirms.length, 2);
    assert.ok(h.confirms[1].commandLine.endsWith(`-e 'console.log('\\''harmless'\\'')'`), h.confirms[1].commandLine);
  });
});

describe('terminals: session handlers', function () {
  this.timeout(20000);
  if (process.platform === 'win32') return;
  const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-terminals-')));
  const create = (h: Harness, command: string, args?: string[]) => h.terminals.createTerminal({ sessionId: 's', command, args }, never);
  const params = (terminalId: string) => ({ sessionId: 's', terminalId });
  let live: Harness[] = [];
  afterEach(async () => {
    for (const h of live.splice(0)) {
      await h.terminals.dispose();
      h.registry.dispose();
    }
  });
  const make = (o?: Parameters<typeof harness>[1]) => {
    const h = harness(cwd, o);
    live.push(h);
    return h;
  };

  it('dispose releases every running terminal: their processes end', async () => {
    const h = make();
    const { terminalId } = await create(h, process.execPath, ['-e', "process.on('SIGTERM', () => {}); console.log('pid:' + process.pid); setInterval(() => {}, 1000)"]);
    const terminal = h.registry.get(terminalId)!;
    assert.ok(await eventually(() => terminal.read().output.includes('pid:')));
    await h.terminals.dispose();
    assert.ok(!isAlive(terminal.pid));
    assert.equal(terminal.exitStatus?.signal, 'SIGKILL');
    await assert.rejects(create(h, 'ls'), /session has ended/);
  });

  it('unknown ids and released ids are refused with -32602', async () => {
    const h = make();
    await assert.rejects(h.terminals.terminalOutput(params('nope')), (e: RpcError) => e.code === -32602);
    const { terminalId } = await create(h, 'true');
    await h.terminals.releaseTerminal(params(terminalId));
    await assert.rejects(h.terminals.killTerminal(params(terminalId)), (e: RpcError) => e.code === -32602);
    assert.ok(h.registry.tail(terminalId), 'the conversation can still show it');
  });

  it('wait_for_exit answers -32800 when the agent cancels the request, and the command keeps running', async () => {
    const h = make();
    const { terminalId } = await create(h, process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    const abort = new AbortController();
    const waiting = h.terminals.waitForTerminalExit(params(terminalId), abort.signal);
    abort.abort();
    await assert.rejects(waiting, (e: RpcError) => e.code === -32800);
    assert.equal(h.registry.get(terminalId)!.running, true);
  });

  it('a program that does not exist is an error naming it; an empty command too', async () => {
    const h = make();
    await assert.rejects(create(h, 'howdah-no-such-program'), /howdah-no-such-program was not found/);
    await assert.rejects(create(h, '  '), /empty/);
  });

  it('howdah.terminal = off refuses', async () => {
    const h = make({ settings: { mode: 'off' } });
    await assert.rejects(create(h, 'ls'), /turned off/);
  });

  it('the cwd must be a folder inside the workspace', async () => {
    const h = make();
    fs.writeFileSync(path.join(cwd, 'file.txt'), 'x');
    await assert.rejects(h.terminals.createTerminal({ sessionId: 's', command: 'ls', cwd: path.join(cwd, 'file.txt') }, never), /not a directory/);
    await assert.rejects(h.terminals.createTerminal({ sessionId: 's', command: 'ls', cwd: os.homedir() }, never), /outside the workspace/);
  });

  it('the registry gives the panel a plain-text tail and the exit status', async () => {
    const h = make();
    const { terminalId } = await create(h, process.execPath, ['-e', "console.log('\\x1b[32mgreen\\x1b[0m'); process.exit(2)"]);
    await h.terminals.waitForTerminalExit(params(terminalId), never);
    const tail = h.registry.tail(terminalId)!;
    assert.equal(tail.output, 'green\n');
    assert.deepEqual(tail.exit, { code: 2, signal: null });
    assert.equal(tail.running, false);
    assert.equal(h.registry.get(terminalId)!.replay(), '\x1b[32mgreen\x1b[0m\n', 'the terminal view keeps colours');
  });

  it('approvedCommandLines reads allowed tool calls: command strings, argv, Codex bash -lc, backquoted titles', () => {
    const allow = { optionId: 'a', name: 'Allow', kind: 'allow_once' };
    const lines = approvedCommandLines([
      { rawInput: { command: 'rm -rf build' }, permissionAnswer: allow },
      { rawInput: { command: ['bash', '-lc', 'git push --force'] }, permissionAnswer: allow },
      { title: '`git reset --hard`', permissionAnswer: allow },
      { rawInput: { command: 'rm -rf dist' }, permissionAnswer: { optionId: 'r', name: 'Reject', kind: 'reject_once' } },
      { rawInput: { command: 'rm -rf x' } },
    ]);
    assert.deepEqual(lines, ['rm -rf build', 'bash -lc git push --force', 'git push --force', 'git reset --hard']);
  });
});
