import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { agentText, alive, howdah, waitFor } from './helpers';

// The harness registers agent `fake` (the fake agent's `markdown` scenario) as howdah.defaultAgent.
const STREAMED_TAIL = 'Ünïcödé and emoji 🐘 survive chunking.';

describe('sessions with the fake agent', () => {
  afterEach(async () => (await howdah()).stopAll());

  it('howdah.newSession starts a session with the default agent', async () => {
    const api = await howdah();
    const before = new Set(api.sessionKeys());
    await vscode.commands.executeCommand('howdah.newSession');
    const key = await waitFor('a new session key', () => api.sessionKeys().find(k => !before.has(k)), 20000);
    const pid = await waitFor('the agent pid', () => api.agentPid(key));
    assert.ok(alive(pid), `agent process ${pid} is running`);
  });

  it("api.newSession('fake') starts the fake agent", async () => {
    const api = await howdah();
    const key = await api.newSession('fake');
    assert.ok(api.sessionKeys().includes(key), 'the key is listed');
    const pid = api.agentPid(key);
    assert.ok(pid && alive(pid), `agent process ${pid} is running`);
  });

  it("a prompt's streamed answer reaches the session", async () => {
    const api = await howdah();
    const key = await api.newSession('fake');
    const stopReason = await api.prompt(key, 'Show me an example');
    assert.equal(stopReason, 'end_turn');
    const text = agentText(api.snapshot(key));
    assert.ok(text.startsWith('# Greeting helper'), `answer starts with the heading: ${JSON.stringify(text.slice(0, 60))}`);
    assert.ok(text.includes(STREAMED_TAIL), `answer holds every chunk: ${JSON.stringify(text.slice(-80))}`);
  });

  it('stopAll ends every agent process', async () => {
    const api = await howdah();
    const key = await api.newSession('fake');
    const pid = await waitFor('the agent pid', () => api.agentPid(key));
    await api.stopAll();
    await waitFor(`agent ${pid} to exit`, () => !alive(pid), 5000);
    assert.deepEqual(api.sessionKeys().filter(k => k === key && api.agentPid(k)), []);
  });
});
