// Issue 12, "no silent failure": an agent that cannot start a session leaves its explanation in the panel (the gate
// above the conversation, as the page gets it) until the user acts: Retry, Sign in, Show Log, Edit Agent Settings,
// Dismiss, or another session.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import type { StartErrorView } from '../../src/shared/gateProtocol';
import { registerAgent, updateAgent } from './agentSetup';
import { agentText, howdah, waitFor, workspaceFolder } from './helpers';

const startError = (api: HowdahApi) => {
  const gate = api.panelGate() as { kind?: string } | undefined;
  return gate?.kind === 'startError' ? (gate as StartErrorView) : undefined;
};
const press = (api: HowdahApi, error: StartErrorView, action: string) => api.panelIntent({ type: 'startError', id: error.id, action });
const fixed = <A extends { env?: Record<string, string> }>(agent: A): A => ({ ...agent, env: { ...agent.env, FAKE_AGENT_FIXED: '1' } });

describe('agents: start errors in the panel (issue 12)', function () {
  this.timeout(60000);

  afterEach(async () => {
    const api = await howdah();
    api.chooseSignIn(undefined);
    const shown = startError(api);
    if (shown) await press(api, shown, 'dismiss');
    await api.stopAll();
  });

  it('a session/new error: the agent, its message and its stderr stay in the panel; Retry once fixed opens the session', async () => {
    const api = await howdah();
    const agentId = await registerAgent('start-error', 'new-session-fails', {}, 'Fake Broken');
    const before = api.sessionKeys().length;
    await assert.rejects(api.newSession(agentId), /could not start a session/);
    const error = await waitFor('the start error in the panel', () => startError(api));
    assert.equal(error.agentName, 'Fake Broken');
    assert.equal(error.title, 'Fake Broken could not start a session');
    assert.equal(error.message, 'session/new failed (error -32603).');
    assert.equal(error.agentMessage, 'Internal error: could not create a session: model "fake-large" unavailable');
    const why = error.stderr.indexOf('fake-agent: error: model "fake-large" is not available to this account');
    assert.ok(why >= 0, `the last stderr lines, colour escapes removed: ${JSON.stringify(error.stderr)}`);
    assert.equal(error.stderr[why + 1], "fake-agent: set FAKE_AGENT_FIXED=1 in the agent's env to fix it");
    assert.deepEqual(error.actions, ['retry', 'showLog', 'editSettings', 'dismiss']);
    assert.equal(api.sessionKeys().length, before, 'no session was added');
    // It is held: a moment later (and for a page shown again, which gets the gate on `ready`) it is still there.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(startError(api)?.id, error.id);

    // The output channel "Howdah: Fake Broken" (its document is output:howdah.howdah.Howdah Fake Broken.log).
    const shownLog = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output' && e.document.uri.path.includes('Howdah Fake Broken'));
    assert.ok(!shownLog(), 'the log is not shown before Show Log');
    await press(api, error, 'showLog');
    await waitFor("the agent's output channel", shownLog);
    await press(api, error, 'editSettings');
    await waitFor('the Settings editor', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'Settings')));
    await updateAgent(agentId, fixed);
    await press(api, error, 'retry');
    const key = await waitFor('the session Retry opened', () => api.sessionKeys().find((k) => (api.snapshot(k) as { agentName: string }).agentName === 'Fake Broken'));
    assert.equal((api.snapshot(key) as { status: string }).status, 'ready');
    await waitFor('the start error gone', () => !startError(api));
    assert.equal(await api.prompt(key, 'hello'), 'end_turn');
    assert.equal(agentText(api.snapshot(key)), 'The session opened.');
  });

  it('Dismiss hides it; an agent that exits while starting, or cannot be found, says so', async () => {
    const api = await howdah();
    await assert.rejects(api.newSession('fake-exit-before-init'));
    const exited = await waitFor('the start error', () => startError(api));
    assert.equal(exited.message, `${exited.agentName} exited with code 1 during initialize.`);
    assert.ok(exited.stderr.includes('fake-agent: cannot start: no configuration found (simulated)'), JSON.stringify(exited.stderr));
    assert.equal(exited.agentMessage, undefined, 'it answered nothing');
    await press(api, exited, 'dismiss');
    await waitFor('the start error dismissed', () => !startError(api));

    const missing = await registerAgent('start-missing', 'markdown', {}, 'Fake Missing');
    await updateAgent(missing, (a) => ({ ...a, command: '/nonexistent/fake-agent-acp' }));
    await assert.rejects(api.newSession(missing));
    const notFound = await waitFor('the start error for a missing command', () => startError(api));
    assert.equal(notFound.agentName, 'Fake Missing');
    assert.match(notFound.message, /not installed: the command "\/nonexistent\/fake-agent-acp" was not found/);
    // Another session replaces the explanation.
    await api.newSession('fake');
    await waitFor('the start error gone with a new session', () => !startError(api));
  });

  it('a sign-in that did not happen offers Sign in, which asks again and opens the session', async () => {
    const api = await howdah();
    const agentId = await registerAgent('start-auth', 'auth', {}, 'Fake Auth Start');
    const starting = api.newSession(agentId);
    await waitFor('the sign-in question', () => api.signInRequest(), 20000);
    api.chooseSignIn(undefined);
    await assert.rejects(starting, /was cancelled/);
    const error = await waitFor('the start error', () => startError(api));
    assert.equal(error.message, 'Signing in to Fake Auth Start was cancelled.');
    assert.deepEqual(error.actions, ['signIn', 'retry', 'showLog', 'editSettings', 'dismiss']);
    const pressed = press(api, error, 'signIn');
    const request = await waitFor('the sign-in question again', () => api.signInRequest(), 20000);
    assert.equal(request.agentName, 'Fake Auth Start');
    assert.equal(startError(api), undefined, 'the sign-in question is shown instead');
    api.chooseSignIn('fake-login');
    await pressed;
    const key = await waitFor('the session', () => api.sessionKeys().find((k) => (api.snapshot(k) as { agentName: string }).agentName === 'Fake Auth Start'));
    assert.equal((api.snapshot(key) as { status: string }).status, 'ready');
    assert.equal(startError(api), undefined);
  });

  it('a conversation whose session/load fails says so on it; Retry loads the same session', async () => {
    const api = await howdah();
    const agentId = await registerAgent('start-load', 'load-fails', {}, 'Fake Load');
    const key = await api.openPast({ agentId, sessionId: 'old-9', cwd: workspaceFolder().fsPath, title: 'An old one' });
    assert.ok(key);
    assert.equal((api.snapshot(key) as { status: string }).status, 'exited');
    const error = await waitFor('the start error', () => startError(api));
    assert.equal(error.title, 'Fake Load could not continue the conversation');
    assert.ok(error.stderr.includes('fake-agent: the session store is locked by another process'), JSON.stringify(error.stderr));
    assert.equal(error.agentMessage, 'Internal error: session store unavailable');

    await updateAgent(agentId, fixed);
    await press(api, error, 'retry');
    const s = api.snapshot(key) as { status: string; sessionId: string; entries: { kind: string; text?: string }[] };
    assert.equal(s.status, 'ready');
    assert.equal(s.sessionId, 'old-9', 'the same session');
    assert.ok(agentText(s).includes('An earlier answer.'), 'its replay is the transcript');
    await waitFor('the start error gone', () => !startError(api));
  });
});
