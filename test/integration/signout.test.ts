import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor } from './helpers';

/** The methods the fake agent received, from its wire log. */
const received = (log: string) =>
  fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.dir === 'in' && l.msg.method).map((l) => l.msg.method as string) : [];

describe('sign out: Howdah: Sign Out', function () {
  this.timeout(60000);
  let api: HowdahApi;
  const keys: string[] = [];
  before(async () => {
    api = await howdah();
  });
  afterEach(async () => {
    api.chooseSignIn(undefined);
    for (const key of keys.splice(0)) await api.close(key).catch(() => undefined);
  });

  it('calls logout on an agent that offers it, then shows the sign-in question; signing in again goes on in the same session', async () => {
    const log = path.join(os.tmpdir(), `howdah-signout-${Date.now()}.jsonl`);
    const agentId = await registerAgent('signout', 'auth', { FAKE_AGENT_LOG: log }, 'Fake Auth');
    const starting = api.newSession(agentId);
    await waitFor('the first sign-in', () => api.signInRequest());
    api.chooseSignIn('fake-login');
    const key = await starting;
    keys.push(key);
    api.setActive(key);
    const pid = api.agentPid(key);

    const signingOut = vscode.commands.executeCommand('howdah.signOut');
    const request = await waitFor('the sign-in question after logout', () => api.signInRequest());
    assert.match(request.message, /signed out of Fake Auth/);
    assert.deepEqual(received(log).filter((m) => m === 'logout' || m === 'authenticate'), ['authenticate', 'logout']);
    assert.deepEqual(api.panelGate(), { kind: 'signIn', agentName: 'Fake Auth', message: request.message, choices: request.choices.map((c) => ({ id: c.id, label: c.label, description: c.description })) });
    api.chooseSignIn('fake-login');
    await signingOut;
    assert.deepEqual(received(log).filter((m) => m === 'logout' || m === 'authenticate'), ['authenticate', 'logout', 'authenticate']);
    assert.equal(api.agentPid(key), pid, 'the same agent process: no restart was needed');
    await api.prompt(key, 'still there?');
    assert.match(agentText(api.snapshot(key)), /You are signed in\./);
  });

  it('does nothing with an agent that does not offer logout', async () => {
    const log = path.join(os.tmpdir(), `howdah-signout-none-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('no-signout', 'test:echo', { FAKE_AGENT_LOG: log }));
    keys.push(key);
    api.setActive(key);
    await vscode.commands.executeCommand('howdah.signOut');
    assert.equal(api.signInRequest(), undefined);
    assert.ok(!received(log).includes('logout'));
  });
});
