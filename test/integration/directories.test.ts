import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor, workspaceFolder } from './helpers';

interface Sent {
  method: string;
  params: { cwd?: string; additionalDirectories?: string[] };
}
/** The session requests the fake agent received, from its wire log. */
const sessionCalls = (log: string): Sent[] =>
  fs.existsSync(log)
    ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.dir === 'in' && /^session\/(new|load|resume)$/.test(l.msg.method)).map((l) => l.msg as Sent)
    : [];

// These check the invariant on whatever folders the window has — cwd plus additionalDirectories is exactly that set.
// The "multi-root" ones below run in a second window the tier opens on a .code-workspace of two folders (adding a
// folder at run time with updateWorkspaceFolders never completes in the harness's code-server).
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

describe('additionalDirectories in a multi-root window: two folders, one sandbox', function () {
  this.timeout(60000);
  let api: HowdahApi;
  const keys: string[] = [];
  before(async function () {
    if (!process.env.HOWDAH_MULTIROOT) return this.skip();
    api = await howdah();
  });
  after(async () => {
    for (const key of keys.splice(0)) await api?.close(key).catch(() => undefined);
  });
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

  it('multi-root: session/new starts in the first folder and names the second as an additional directory', async () => {
    assert.deepEqual(folders().map((f) => path.basename(f)), ['app', 'lib'], 'the window has both folders');
    const log = path.join(os.tmpdir(), `howdah-multi-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('multi', 'test:directories', { FAKE_AGENT_LOG: log }));
    keys.push(key);
    const [created] = sessionCalls(log);
    assert.equal(created.params.cwd, folders()[0]);
    assert.deepEqual(created.params.additionalDirectories, [folders()[1]]);
  });

  it('multi-root: the agent may read a file of the second folder through fs/read_text_file, and nothing beside them', async () => {
    const outside = path.join(path.dirname(folders()[0]), 'outside.txt');
    fs.writeFileSync(outside, 'not in any folder\n');
    const inLib = await api.newSession(await registerAgent('multi-read', 'test:files-read', { READ_TARGET: '../lib/shared.txt' }));
    keys.push(inLib);
    assert.equal(await api.prompt(inLib, 'read it'), 'end_turn');
    assert.match(agentText(api.snapshot(inLib)), /^all=shared between the folders\n\|/);
    const beside = await api.newSession(await registerAgent('multi-outside', 'test:files-read', { READ_TARGET: '../outside.txt' }));
    keys.push(beside);
    await api.prompt(beside, 'read it');
    assert.match(agentText(api.snapshot(beside)), /error=-?\d+ .*outside/i, 'a file beside the folders is refused');
    assert.doesNotMatch(agentText(api.snapshot(beside)), /not in any folder/);
  });
});

