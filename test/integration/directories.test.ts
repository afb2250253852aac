import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { howdah, waitFor, workspaceFolder } from './helpers';

interface Sent {
  method: string;
  params: { cwd?: string; additionalDirectories?: string[] };
}
/** The session requests the fake agent received, from its wire log. */
const sessionCalls = (log: string): Sent[] =>
  fs.existsSync(log)
    ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.dir === 'in' && /^session\/(new|load|resume)$/.test(l.msg.method)).map((l) => l.msg as Sent)
    : [];

// The harness opens one folder, and adding one at run time (updateWorkspaceFolders) never completes in its
// code-server (the untitled multi-root workspace is not entered): these tests check the invariant on the folders
// the window has — cwd plus additionalDirectories is exactly that set — which a multi-root run checks the same way.
describe('additionalDirectories: the other workspace folders, for agents that support them', function () {
  this.timeout(60000);
  let api: HowdahApi;
  const keys: string[] = [];
  before(async () => {
    api = await howdah();
  });
  after(async () => {
    for (const key of keys.splice(0)) await api.close(key).catch(() => undefined);
  });

  it('session/new and session/resume carry them (the complete list, even empty): with cwd, every workspace folder once', async () => {
    const log = path.join(os.tmpdir(), `howdah-dirs-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('dirs', 'test:directories', { FAKE_AGENT_LOG: log }));
    keys.push(key);
    const cwd = workspaceFolder().fsPath;
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const [created] = sessionCalls(log);
    assert.deepEqual([created.method, created.params.cwd], ['session/new', cwd]);
    assert.ok(Array.isArray(created.params.additionalDirectories), 'sent, since the agent advertised the capability');
    assert.deepEqual(new Set([cwd, ...created.params.additionalDirectories!]), new Set(folders));
    assert.ok(!created.params.additionalDirectories!.includes(cwd));
    await api.restart(key);
    await waitFor('the resume', () => sessionCalls(log).length === 2 || undefined);
    const resumed = sessionCalls(log)[1];
    assert.equal(resumed.method, 'session/resume');
    assert.deepEqual(resumed.params.additionalDirectories, created.params.additionalDirectories, 'the complete list again on resume');
  });

  it('an agent that does not advertise them gets none', async () => {
    const log = path.join(os.tmpdir(), `howdah-nodirs-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('nodirs', 'test:echo', { FAKE_AGENT_LOG: log }));
    keys.push(key);
    assert.equal(sessionCalls(log)[0].params.additionalDirectories, undefined);
    assert.ok(!('additionalDirectories' in sessionCalls(log)[0].params));
  });
});
