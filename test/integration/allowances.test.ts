import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import type { AllowancesView } from '../../src/shared/allowances';
import { registerAgent } from './agentSetup';
import { howdah, waitFor, workspaceFolder } from './helpers';

/** The MCP servers the fake agent was given on session/new, from its wire log. */
const passedServers = (log: string): { name: string }[] | undefined =>
  fs.existsSync(log)
    ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.dir === 'in' && l.msg.method === 'session/new')?.msg.params.mcpServers
    : undefined;

const SETTINGS = ['fs.write', 'terminal', 'mcpServers', 'commands.deny', 'editorContext'] as const;

// The panel's "The agent may" summary: what the agent was really given (the folders, fs and terminal capabilities,
// the MCP servers of session/new), and before it runs, what the settings would give it.
describe('what the agent may do, in the panel header', function () {
  this.timeout(60000);
  let api: HowdahApi;
  const keys: string[] = [];
  const config = () => vscode.workspace.getConfiguration('howdah');
  before(async () => {
    api = await howdah();
  });
  after(async () => {
    for (const key of keys.splice(0)) await api.close(key).catch(() => undefined);
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the settings the session started with and the MCP servers it was passed', async () => {
    await config().update('fs.write', 'ask', vscode.ConfigurationTarget.Global);
    await config().update('terminal', 'off', vscode.ConfigurationTarget.Global);
    await config().update('commands.deny', ['rm -rf *', 'curl *'], vscode.ConfigurationTarget.Global);
    await config().update('mcpServers', [{ name: 'docs', command: 'node', args: ['docs-server.js'] }], vscode.ConfigurationTarget.Global);
    const log = path.join(os.tmpdir(), `howdah-allow-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('allow', 'test:echo', { FAKE_AGENT_LOG: log }));
    keys.push(key);
    api.setActive(key);
    const header = await waitFor('the header with what the agent may do', () => {
      const h = api.panelHeader() as { sessionKey?: string; allowances?: AllowancesView };
      return h.sessionKey === key && h.allowances?.live ? h : undefined;
    });
    const a = header.allowances!;
    const cwd = workspaceFolder().fsPath;
    assert.equal(a.folders[0], cwd, 'the cwd first');
    assert.deepEqual(new Set(a.folders), new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)));
    assert.equal(a.read, true);
    assert.equal(a.write, 'ask');
    assert.equal(a.terminal, 'off');
    assert.deepEqual(a.commandRules, { deny: 2, ask: 0 });
    const passed = await waitFor('session/new in the log', () => passedServers(log));
    assert.deepEqual(a.mcpServers.map((s) => s.name), passed.map((s) => s.name), 'exactly the servers the agent was given');
    assert.deepEqual(a.mcpServers, [
      { name: 'howdah', transport: 'stdio', own: true },
      { name: 'docs', transport: 'stdio', own: false },
    ]);

    // A change of the settings does not change what the running agent got.
    await config().update('fs.write', 'apply', vscode.ConfigurationTarget.Global);
    const after = (api.panelHeader() as { allowances?: AllowancesView }).allowances!;
    assert.equal(after.write, 'ask', 'the running connection keeps what it was offered');
  });

  it('the setting links are intents the host takes', async () => {
    await api.panelIntent({ type: 'openSetting', setting: 'howdah.fs.write' });
    await waitFor('the settings editor', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => /Settings/.test(t.label)) || undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
