import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentConnection } from '../../../src/acp/agentConnection';
import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { ConnectionClosedError, RpcError } from '../../../src/acp/errors';
import { ProtocolVersionError } from '../../../src/acp/connection';
import type { ReadTextFileParams } from '../../../src/acp/schema/clientMethods';
import { eventually, isAlive, fakeAgentsPerTest, openSession, textOf } from '../support/fakeAgent';

describe('protocol layer against the fake agent over real stdio', () => {
  const start = fakeAgentsPerTest();

  it('initializes, opens a session and streams a Markdown answer with thoughts', async () => {
    const run = start('markdown');
    const init = await run.connection.start();
    assert.equal(init.protocolVersion, 1);
    assert.equal(run.connection.initializeResult, init);
    assert.equal(run.connection.isClosed, false);
    const sessionId = (await run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] })).sessionId;
    const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'Explain' }] });
    assert.equal(result.stopReason, 'end_turn');
    assert.ok(textOf(run.updates, 'agent_thought_chunk').length > 0);
    const answer = textOf(run.updates);
    assert.match(answer, /```\w+/);
    assert.ok(run.updates.every((n) => n.sessionId === sessionId));
  });

  it('round-trips fs reads (line/limit, missing file -32002) and writes through the handlers', async () => {
    const reads: ReadTextFileParams[] = [];
    const written: Record<string, string> = {};
    const run = start('fs', {
      readTextFile: async (params) => {
        reads.push(params);
        if (!params.path.endsWith('notes.md')) throw RpcError.resourceNotFound(`File not found: ${params.path}`);
        const text = 'line one\nline two\nline three\n';
        if (params.line) return { content: text.split('\n').slice(params.line - 1, params.line - 1 + (params.limit ?? 1e9)).join('\n') + '\n' };
        return { content: text };
      },
      writeTextFile: async (params) => {
        written[params.path] = params.content;
      },
    });
    const sessionId = await openSession(run);
    const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.equal(result.stopReason, 'end_turn');
    assert.equal(reads.length, 3);
    assert.deepEqual([reads[1].line, reads[1].limit], [2, 1]);
    assert.match(textOf(run.updates), /notes\.md says:\nline one\nline two/);
    assert.match(textOf(run.updates), /line 2: line two/);
    assert.deepEqual(written, { [path.join(run.cwd, 'out.txt')]: 'written by fake-agent\nsecond line\n' });
  });

  it('answers permission prompts allow, reject and cancelled (by cancelling the turn)', async () => {
    const choices = ['allow-once', 'reject-once'];
    // What the session does on cancel (it owns its prompts): answers the waiting one `cancelled`.
    let answerCancelled: (() => void) | undefined;
    const run = start('permission', {
      requestPermission: () => {
        const choice = choices.shift();
        if (choice) return Promise.resolve({ outcome: 'selected', optionId: choice });
        return new Promise((resolve) => (answerCancelled = () => resolve({ outcome: 'cancelled' })));
      },
    });
    const sessionId = await openSession(run);
    const prompt = (text: string) => run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text }] });
    assert.equal((await prompt('1')).stopReason, 'end_turn');
    assert.match(textOf(run.updates), /Allowed with allow-once/);
    assert.equal((await prompt('2')).stopReason, 'end_turn');
    assert.match(textOf(run.updates), /Rejected with reject-once/);
    const third = prompt('3');
    while (!answerCancelled) await new Promise((r) => setTimeout(r, 10));
    await run.connection.acp.cancel(sessionId);
    answerCancelled();
    assert.equal((await third).stopReason, 'cancelled');
  });

  it('serves a request with string ids', async () => {
    const run = start('string-ids', {
      requestPermission: async (params) => ({ outcome: 'selected', optionId: params.options[0].optionId }),
      readTextFile: async () => ({ content: 'from the buffer' }),
    });
    const sessionId = await openSession(run);
    await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.match(textOf(run.updates), /read from the buffer/);
    const ids = run.agentLog().filter((m) => m.dir === 'out' && m.msg.method).map((m) => m.msg.id).filter((id) => id !== undefined);
    assert.ok(ids.length >= 2 && ids.every((id) => typeof id === 'string'), `string ids: ${JSON.stringify(ids)}`);
  });

  it('keeps unknown update kinds and survives a malformed line', async () => {
    const run = start('unknown');
    const sessionId = await openSession(run);
    const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.equal(result.stopReason, 'end_turn');
    const kinds = run.updates.map((n) => n.update.sessionUpdate);
    assert.ok(kinds.includes('unknown'), `kinds: ${kinds.join(',')}`);
    const unknown = run.updates.find((n) => n.update.sessionUpdate === 'unknown')!.update as { original?: string; raw: unknown };
    assert.equal(unknown.original, 'future_thing');
    // The agent's log shows it received our -32700 for the malformed line, and the stream went on.
    const parseErrors = () => run.agentLog().filter((m) => m.dir === 'in' && (m.msg.error as { code?: number } | undefined)?.code === -32700);
    assert.ok(await eventually(() => parseErrors().length === 2), `two -32700 answers, saw ${parseErrors().length}`);
    assert.ok(textOf(run.updates).length > 0);
  });

  it('rejects the pending prompt with the exit code and stderr tail when the agent crashes mid-turn', async () => {
    const run = start('crash');
    const sessionId = await openSession(run);
    const pid = run.connection.process.pid;
    const error = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] }).catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionClosedError, String(error));
    assert.equal(error.exitCode, 3);
    assert.match(error.message, /exited with code 3/);
    assert.ok(error.stderrTail.some((l) => l.includes('simulated crash')));
    assert.equal(run.connection.isClosed, true);
    assert.equal(error.stopCause, undefined, 'a crash: nobody asked it to stop');
    assert.equal(isAlive(pid), false);
    await assert.rejects(run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] }), ConnectionClosedError);
  });

  it('reports an agent that exits before answering initialize, with its stderr', async () => {
    const run = start('exit-before-init');
    const error = await run.connection.start().catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionClosedError);
    assert.equal(error.exitCode, 1);
    assert.match(error.message, /no configuration found/);
  });

  it('disconnects from an agent that answers another protocol version', async () => {
    const run = start('bad-version');
    const error = await run.connection.start().catch((e: unknown) => e);
    assert.ok(error instanceof ProtocolVersionError);
    assert.equal(run.connection.isClosed, true);
    assert.equal((await run.connection.closed).stopCause, 'start-failed');
  });

  it('reports a command that does not exist', async () => {
    const connection = new AgentConnection(
      { command: '/nonexistent/agent-binary', args: [], cwd: process.cwd() },
      {
        name: 'Missing',
        clientInfo: { name: 't', version: '0' },
        capabilities: buildClientCapabilities({ readFiles: false, writeFiles: 'off', terminal: 'off', terminalAuth: false }),
        handlers: { sessionUpdate: () => {}, requestPermission: async () => ({ outcome: 'cancelled' }) },
      },
    );
    const error = await connection.start().catch((e: unknown) => e);
    assert.ok(error instanceof ConnectionClosedError);
    assert.match(error.message, /could not be started[\s\S]*ENOENT/);
  });

  it('stops a hung agent within the grace period and settles its pending prompt', async () => {
    const run = start('hang');
    const sessionId = await openSession(run);
    const pid = run.connection.process.pid;
    const prompt = run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await run.connection.acp.cancel(sessionId);
    const started = Date.now();
    await run.connection.stop();
    assert.ok(Date.now() - started < 3500);
    await assert.rejects(prompt, ConnectionClosedError);
    assert.equal(isAlive(pid), false);
  });

  it('keeps working while the agent floods stderr, and keeps only the last 200 lines', async () => {
    const run = start('stderr-flood');
    const sessionId = await openSession(run);
    const result = await run.connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.equal(result.stopReason, 'end_turn');
    // stderr is its own pipe: its last lines may still be in flight when the prompt answers.
    assert.ok(await eventually(() => run.stderr.length >= 20000), `saw ${run.stderr.length} stderr lines`);
    assert.equal(run.connection.process.stderrTail().length, 200);
    assert.match(textOf(run.updates), /done\./);
  });

  it('kills the whole process group on stop: no orphans', async () => {
    const childPidFile = path.join(fs.mkdtempSync('/tmp/howdah-group-'), 'child.pid');
    const script = `const {spawn}=require('child_process');const c=spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('fs').writeFileSync(${JSON.stringify(childPidFile)},String(c.pid));process.on('SIGTERM',()=>{});setInterval(()=>{},1000);process.stdin.resume();`;
    const connection = new AgentConnection(
      { command: process.execPath, args: ['-e', script], cwd: process.cwd() },
      {
        name: 'Stubborn',
        clientInfo: { name: 't', version: '0' },
        capabilities: buildClientCapabilities({ readFiles: false, writeFiles: 'off', terminal: 'off', terminalAuth: false }),
        handlers: { sessionUpdate: () => {}, requestPermission: async () => ({ outcome: 'cancelled' }) },
      },
    );
    while (!fs.existsSync(childPidFile) || !fs.readFileSync(childPidFile, 'utf8')) await new Promise((r) => setTimeout(r, 20));
    const childPid = Number(fs.readFileSync(childPidFile, 'utf8'));
    assert.ok(isAlive(childPid));
    await connection.stop();
    assert.equal(isAlive(connection.process.pid), false);
    assert.ok(await eventually(() => !isAlive(childPid), 1000), 'the grandchild died with the group');
  });
});
