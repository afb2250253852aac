import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HowdahApi } from '../../src/api';
import { agentText, alive, howdah, waitFor, workspaceFolder } from './helpers';

interface Snapshot {
  status: string;
  exitReason?: string;
  sessionId: string;
  turn: string;
  entries: { kind: string; role?: string; text?: string; toolCallId?: string; message?: string }[];
  toolCalls: Record<string, { title: string; kind: string; status: string }>;
  info: { title?: string };
  usage?: { used: number };
}
const snap = (api: HowdahApi, key: string) => api.snapshot(key) as Snapshot;

describe('agents: several sessions, history and recovery', function () {
  this.timeout(60000);
  const marker = () => path.join(workspaceFolder().fsPath, '.crash-once-marker');

  afterEach(async () => {
    fs.rmSync(marker(), { force: true });
    await (await howdah()).stopAll();
  });

  it('two sessions with two different agents prompt at once, each with its own process', async () => {
    const api = await howdah();
    const [a, b] = await Promise.all([api.newSession('fake'), api.newSession('fake-usage')]);
    const pidA = api.agentPid(a);
    const pidB = api.agentPid(b);
    assert.ok(pidA && pidB && pidA !== pidB, `two processes: ${pidA}, ${pidB}`);
    const [stopA, stopB] = await Promise.all([api.prompt(a, 'Show me an example'), api.prompt(b, 'How much?')]);
    assert.deepEqual([stopA, stopB], ['end_turn', 'end_turn']);
    assert.ok(agentText(snap(api, a)).startsWith('# Greeting helper'), 'the markdown agent answered its session');
    assert.equal(agentText(snap(api, b)), 'Counting tokens for you.', 'the usage agent answered its session');
    assert.equal(snap(api, b).usage?.used, 53210);
    assert.equal(snap(api, a).usage, undefined, "one session's updates never reach the other");
    assert.ok(alive(pidA) && alive(pidB));
  });

  it('a session the agent lists is opened through session/load, its replay becoming the transcript', async () => {
    const api = await howdah();
    await api.newSession('fake-load');
    const history = await api.agentHistory();
    assert.ok(history, 'the load agent can list its sessions');
    assert.equal(history.agentId, 'fake-load');
    assert.deepEqual(
      history.sessions.map((s) => s.sessionId),
      ['old-1', 'old-2'],
      'both pages, only this workspace',
    );
    const old = history.sessions[0];
    const key = await api.openPast({ agentId: history.agentId, sessionId: old.sessionId, cwd: old.cwd, title: old.title ?? undefined });
    assert.ok(key);
    const s = snap(api, key);
    assert.equal(s.status, 'ready');
    assert.equal(s.sessionId, 'old-1');
    assert.equal(s.info.title, 'Fix the greeting bug');
    assert.deepEqual(
      s.entries.map((e) => [e.kind, e.role ?? e.toolCallId, e.text]),
      [
        ['message', 'user', 'Why does greet() print undefined?'],
        ['message', 'agent', 'Because `name` has no default. Let me look.'],
        ['tool', 'hist-1', undefined],
        ['message', 'agent', 'Found it: line 3.'],
      ],
    );
    assert.deepEqual([s.toolCalls['hist-1'].title, s.toolCalls['hist-1'].status], ['Read src/greet.js', 'completed']);
    // Opening it again shows the open one.
    assert.equal(await api.openPast({ agentId: history.agentId, sessionId: 'old-1', cwd: old.cwd }), key);
    assert.equal(await api.prompt(key, 'go on'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).endsWith('Continuing session old-1.'));
  });

  it('an agent that crashes mid-turn is restarted by itself and the session resumed, transcript kept', async () => {
    const api = await howdah();
    const key = await api.newSession('test-crash-once');
    const firstPid = api.agentPid(key)!;
    const sessionId = snap(api, key).sessionId;
    await assert.rejects(api.prompt(key, 'Do the work'));
    fs.writeFileSync(marker(), 'crashed once');
    const pid = await waitFor('the restarted agent', () => (snap(api, key).status === 'ready' && api.agentPid(key) !== firstPid ? api.agentPid(key) : undefined), 20000);
    assert.ok(!alive(firstPid), 'the crashed process is gone');
    assert.ok(alive(pid));
    const s = snap(api, key);
    assert.equal(s.sessionId, sessionId, 'session/resume kept the session id');
    assert.equal(s.entries[0].text, 'Do the work', 'the transcript is kept');
    assert.ok(agentText(s).startsWith('Starting the work'), `the partial answer is kept: ${agentText(s)}`);
    assert.ok(s.entries.some((e) => e.kind === 'error'), 'the crash is in the transcript');
    const log = api.agentLog(key).join('\n');
    assert.match(log, /exit(ed)? .*3|code 3/i);
    assert.match(log, /Restarting .* \(1 of 3 automatic restarts in 5 minutes\)/);
    assert.match(log, new RegExp(`Restarted; session ${sessionId} resumed`));
    assert.equal(await api.prompt(key, 'Go on'), 'end_turn');
    assert.ok(agentText(snap(api, key)).endsWith(`Back at work in session ${sessionId}.`));
  });
});
