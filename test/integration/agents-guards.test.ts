import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { howdah, waitFor } from './helpers';

describe('agents: trust and the protocol log', function () {
  this.timeout(60000);

  afterEach(async () => {
    const api = await howdah();
    api.simulateUntrustedWorkspace(false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.stopAll();
  });

  it('in an untrusted workspace no agent starts: not a new session, not a restart', async () => {
    const api = await howdah();
    const key = await api.newSession('fake');
    await api.stopAll();
    await waitFor('the agent to stop', () => (api.snapshot(key) as { status: string }).status === 'exited');
    const before = api.sessionKeys().length;
    api.simulateUntrustedWorkspace(true);
    await assert.rejects(api.newSession('fake'), /untrusted workspace/);
    assert.equal(await vscode.commands.executeCommand('howdah.newSession', 'fake'), undefined, 'the command starts nothing');
    await api.restart(key);
    const s = api.snapshot(key) as { status: string; exitReason?: string };
    assert.equal(s.status, 'exited');
    assert.match(s.exitReason ?? '', /untrusted workspace/);
    assert.equal(api.agentPid(key), undefined);
    assert.equal(api.sessionKeys().length, before);

    api.simulateUntrustedWorkspace(false);
    await api.restart(key);
    assert.equal((api.snapshot(key) as { status: string }).status, 'ready', 'trusted again, it starts');
  });

  it('the protocol log lists spec violations and opens as a webview panel', async () => {
    const api = await howdah();
    const key = await api.newSession('fake-unknown');
    assert.equal(await api.prompt(key, 'anything'), 'end_turn');
    const problems = await waitFor('the invalid-JSON warning', () => {
      const p = api.protocolProblems(key);
      return p.some((x) => x.includes('Invalid JSON from the agent')) ? p : undefined;
    });
    assert.ok(problems.includes('session/update: Unknown update kind "future_thing"'), problems.join('\n'));
    assert.ok(problems.some((p) => /^warning: Invalid JSON from the agent/.test(p)), problems.join('\n'));
    await vscode.commands.executeCommand('howdah.showProtocolLog');
    const tab = await waitFor('the protocol log tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Protocol: Fake (unknown)'),
    );
    assert.ok(tab.isActive);
  });
});
