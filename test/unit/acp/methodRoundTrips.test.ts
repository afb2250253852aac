import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { ErrorCode, RpcError } from '../../../src/acp/errors';
import type { TerminalExitStatus } from '../../../src/acp/schema/clientMethods';
import { Session } from '../../../src/session/session';
import { fakeAgentsPerTest, openSession, textOf } from '../support/fakeAgent';

describe('every ACP method against the fake agent', () => {
  const start = fakeAgentsPerTest();

  it('authenticate: session/new needs auth (-32000) until authenticate succeeds; logout', async () => {
    const run = start('auth');
    const init = await run.connection.start();
    assert.deepEqual(init.authMethods.map((m) => [m.id, m.type]), [['fake-login', 'agent'], ['fake-terminal', 'terminal']]);
    assert.deepEqual(init.authMethods[1].args, ['--login']);
    const denied = await run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] }).catch((e: unknown) => e);
    assert.ok(denied instanceof RpcError && denied.code === ErrorCode.authRequired);
    await run.connection.acp.call('authenticate', { methodId: 'fake-login' });
    const created = await run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] });
    assert.ok(created.sessionId);
    assert.equal(run.connection.acp.supports('logout'), true);
    await run.connection.acp.call('logout', {});
    await assert.rejects(run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] }), (e: unknown) => e instanceof RpcError && e.code === -32000);
  });

  it('load replays history before answering; resume, list (paged), close and delete', async () => {
    const run = start('load');
    await run.connection.start();
    const acp = run.connection.acp;
    for (const m of ['loadSession', 'resumeSession', 'listSessions', 'closeSession', 'deleteSession'] as const) assert.ok(acp.supports(m), m);
    const page1 = await acp.call('listSessions', { cwd: run.cwd });
    assert.ok(page1.sessions.length >= 1 && page1.sessions[0].title);
    const all = [...page1.sessions];
    let cursor = page1.nextCursor ?? undefined;
    while (cursor) {
      const next = await acp.call('listSessions', { cwd: run.cwd, cursor });
      all.push(...next.sessions);
      cursor = next.nextCursor ?? undefined;
    }
    assert.ok(all.some((s) => s.sessionId === 'old-2'));
    const before = run.updates.length;
    const loaded = await acp.call('loadSession', { sessionId: 'old-1', cwd: run.cwd, mcpServers: [] });
    assert.ok(loaded);
    const replayed = run.updates.slice(before).map((n) => n.update.sessionUpdate);
    assert.deepEqual(replayed, ['user_message_chunk', 'agent_message_chunk', 'tool_call', 'agent_message_chunk'], 'history arrives before the answer');
    await acp.call('resumeSession', { sessionId: 'old-2', cwd: run.cwd });
    await acp.call('closeSession', { sessionId: 'old-2' });
    await acp.call('deleteSession', { sessionId: 'old-1' });
  });

  it('set_mode, set_config_option and the legacy set_model, with their updates reaching the session', async () => {
    const run = start('modes');
    await run.connection.start();
    const created = await run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] });
    const session = new Session(run.connection.acp, created.sessionId, created);
    assert.equal(session.state.modes?.currentModeId, 'ask');
    assert.deepEqual(session.state.configOptions.map((o) => o.id), ['model', 'mode', 'read_only']);
    assert.equal(session.state.models?.currentModelId, 'fake-fast');
    await session.setMode('code');
    assert.equal(session.state.modes?.currentModeId, 'code');
    await session.setConfigOption('model', 'fake-smart');
    assert.equal(session.state.configOptions.find((o) => o.id === 'model')?.currentValue, 'fake-smart');
    await session.setConfigOption('read_only', true);
    assert.equal(session.state.configOptions.find((o) => o.id === 'read_only')?.currentValue, true);
    await session.setModel('fake-smart');
    assert.equal(session.state.models?.currentModelId, 'fake-smart');
    const sent = run.agentLog().filter((m) => m.dir === 'in' && typeof m.msg.method === 'string').map((m) => m.msg.method);
    for (const method of ['session/set_mode', 'session/set_config_option', 'session/set_model']) assert.ok(sent.includes(method), method);
  });

  it('terminal/create, output, wait_for_exit and release through the handlers', async () => {
    const terminals = new Map<string, { child: ChildProcess; output: string; exit: Promise<TerminalExitStatus> }>();
    const calls: string[] = [];
    const run = start('terminal', {
      createTerminal: async (params) => {
        calls.push('create');
        const child = spawn(params.command === 'node' ? process.execPath : params.command, params.args ?? [], { cwd: params.cwd ?? undefined });
        const entry = { child, output: '', exit: new Promise<TerminalExitStatus>((r) => child.on('exit', (code, signal) => r({ exitCode: code, signal }))) };
        child.stdout?.on('data', (d: Buffer) => (entry.output += d.toString()));
        terminals.set('term-1', entry);
        return { terminalId: 'term-1' };
      },
      waitForTerminalExit: async (params) => {
        calls.push('wait');
        return terminals.get(params.terminalId)!.exit;
      },
      terminalOutput: async (params) => {
        calls.push('output');
        const t = terminals.get(params.terminalId)!;
        return { output: t.output, truncated: false, exitStatus: await t.exit };
      },
      killTerminal: async () => {
        calls.push('kill');
      },
      releaseTerminal: async (params) => {
        calls.push('release');
        terminals.delete(params.terminalId);
      },
    });
    const sessionId = await openSession(run);
    const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.equal(result.stopReason, 'end_turn');
    assert.deepEqual(calls.filter((c) => c !== 'kill'), ['create', 'wait', 'output', 'release']);
    assert.match(textOf(run.updates), /Exit code 0, output: hello/);
    const termContent = run.updates.find((n) => n.update.sessionUpdate === 'tool_call');
    assert.ok(JSON.stringify(termContent).includes('"terminalId":"term-1"'));
  });

  it('terminal methods are refused with -32601 when terminals are off, and the agent is told so', async () => {
    const run = start('terminal', {}, { capabilities: { readFiles: true, writeFiles: 'apply', terminal: 'off', terminalAuth: false } });
    const sessionId = await openSession(run);
    const answer = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] }).catch((e: unknown) => e);
    // The fake agent treats the refused create as a failed expectation; what matters is what it received.
    assert.ok(answer);
    const refused = run.agentLog().filter((m) => m.dir === 'in' && (m.msg.error as { code?: number } | undefined)?.code === -32601);
    assert.equal(refused.length, 1);
  });
});
