import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor } from './helpers';

// The `auth` scenario answers session/new with "Authentication required" until `authenticate(fake-login)` succeeded
// on the connection, or its terminal login (`--login`, env FAKE_AGENT_LOGIN=1) has written $FAKE_AGENT_AUTH_FILE.

describe('agents: signing in when the agent asks', function () {
  this.timeout(60000);
  const authFile = path.join(os.tmpdir(), `howdah-auth-${process.pid}-${Date.now().toString(36)}`);

  afterEach(async () => {
    const api = await howdah();
    api.chooseSignIn(undefined);
    await api.stopAll();
  });
  after(() => fs.rmSync(authFile, { force: true }));

  it('a terminal login runs the agent with the method args and env in a VS Code terminal, then session/new is retried', async () => {
    const api = await howdah();
    const agentId = await registerAgent('auth-terminal', 'auth', { FAKE_AGENT_AUTH_FILE: authFile }, 'Fake Auth');
    const opened: string[] = [];
    const closed: (number | undefined)[] = [];
    const watchers = [
      vscode.window.onDidOpenTerminal((t) => opened.push(t.name)),
      vscode.window.onDidCloseTerminal((t) => closed.push(t.exitStatus?.code)),
    ];
    try {
      const starting = api.newSession(agentId);
      const request = await waitFor('the sign-in question', () => api.signInRequest(), 20000);
      assert.equal(request.agentId, agentId);
      assert.equal(request.agentName, 'Fake Auth');
      assert.match(request.message, /Authentication required/);
      assert.deepEqual(
        request.choices.map((c) => [c.id, c.label]),
        [
          ['fake-login', 'Log in to Fake'],
          ['fake-terminal', 'Log in in a terminal'],
        ],
      );
      api.chooseSignIn('fake-terminal');
      const key = await starting;
      assert.equal(api.signInRequest(), undefined, 'the question is gone');
      assert.ok(opened.includes('Sign in to Fake Auth'), `a sign-in terminal opened: ${JSON.stringify(opened)}`);
      assert.ok(closed.includes(0), `the login exited 0: ${JSON.stringify(closed)}`);
      assert.ok(fs.existsSync(authFile), 'the login wrote $FAKE_AGENT_AUTH_FILE (so FAKE_AGENT_LOGIN=1 reached it)');
      assert.equal((api.snapshot(key) as { status: string }).status, 'ready');
      assert.equal(await api.prompt(key, 'hello'), 'end_turn');
      assert.equal(agentText(api.snapshot(key)), 'You are signed in.');
      assert.ok(api.agentLog(key).some((l) => l.includes('needs a sign-in')), 'the log says why');
    } finally {
      for (const w of watchers) w.dispose();
    }
  });

  it("an agent method is `authenticate`d on the open connection and the session opens", async () => {
    const api = await howdah();
    const agentId = await registerAgent('auth-agent', 'auth');
    const starting = api.newSession(agentId);
    await waitFor('the sign-in question', () => api.signInRequest(), 20000);
    api.chooseSignIn('fake-login');
    const key = await starting;
    assert.equal((api.snapshot(key) as { status: string }).status, 'ready');
    assert.equal(await api.prompt(key, 'hello'), 'end_turn');
    assert.equal(agentText(api.snapshot(key)), 'You are signed in.');
  });

  it('a restarted agent that needs a sign-in again asks again, then continues', async () => {
    const api = await howdah();
    const agentId = await registerAgent('auth-restart', 'auth');
    const starting = api.newSession(agentId);
    await waitFor('the sign-in question', () => api.signInRequest(), 20000);
    api.chooseSignIn('fake-login');
    const key = await starting;
    const firstPid = api.agentPid(key);
    await api.stopAll();
    const restarting = api.restart(key);
    const again = await waitFor('the sign-in question after the restart', () => api.signInRequest(), 20000);
    assert.equal(again.agentId, agentId);
    api.chooseSignIn('fake-login');
    await restarting;
    const s = api.snapshot(key) as { status: string; entries: { kind: string; message?: string }[] };
    assert.equal(s.status, 'ready');
    assert.notEqual(api.agentPid(key), firstPid);
    // The auth scenario cannot resume: a new session for the agent, said in the transcript.
    assert.ok(s.entries.some((e) => e.kind === 'error' && /cannot resume sessions/.test(e.message ?? '')), JSON.stringify(s.entries));
    assert.equal(await api.prompt(key, 'hello again'), 'end_turn');
  });

  it('giving up on the sign-in fails the start with a clear message and leaves no session', async () => {
    const api = await howdah();
    const agentId = await registerAgent('auth-cancel', 'auth');
    const before = api.sessionKeys().length;
    const starting = api.newSession(agentId);
    await waitFor('the sign-in question', () => api.signInRequest(), 20000);
    api.chooseSignIn(undefined);
    await assert.rejects(starting, /Signing in to .* was cancelled/);
    assert.equal(api.sessionKeys().length, before);
    assert.equal(api.signInRequest(), undefined);
  });
});
