import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { registerAgent } from './agentSetup';
import { howdah, waitFor, workspaceFolder } from './helpers';

interface StdioEntry {
  name: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as TextResult).content.map((c) => c.text).join('');

/** The `mcpServers` of the agent's `session/new`, as the fake agent logged what it received. */
async function serversSent(log: string): Promise<StdioEntry[]> {
  const line = await waitFor('session/new in the agent log', () =>
    fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').find((l) => l.includes('"session/new"') && l.includes('"dir":"in"')) : undefined,
  );
  return (JSON.parse(line) as { msg: { params: { mcpServers: StdioEntry[] } } }).msg.params.mcpServers;
}

/** An MCP client on the server Howdah passed, spawned exactly as an agent spawns a stdio server. */
async function connect(entry: StdioEntry): Promise<Client> {
  const env = { PATH: process.env.PATH ?? '', ...Object.fromEntries(entry.env.map((e) => [e.name, e.value])) };
  const client = new Client({ name: 'howdah-integration', version: '1' });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env, stderr: 'ignore' }));
  return client;
}

describe('editor context MCP server (issue 16)', function () {
  this.timeout(60000);
  const clients: Client[] = [];
  const disposables: vscode.Disposable[] = [];
  let file: string;
  let log: string;

  beforeEach(() => {
    file = path.join(workspaceFolder().fsPath, `ec-${Date.now()}.ts`);
    fs.writeFileSync(file, 'export function greet() {\n  return 1;\n}\ngreet();\n');
    log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-ec-it-')), 'agent.jsonl');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const d of disposables.splice(0)) d.dispose();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    const api = await howdah();
    for (const key of api.sessionKeys()) await api.close(key);
  });

  it('is passed on session/new as "howdah", run by the extension host\'s Node, and its script is in out/', async () => {
    const api = await howdah();
    await api.newSession(await registerAgent('ec', 'test:echo', { FAKE_AGENT_LOG: log }));
    const servers = await serversSent(log);
    const howdahServer = servers.find((s) => s.name === 'howdah');
    assert.ok(howdahServer, JSON.stringify(servers));
    assert.equal(howdahServer.command, process.execPath);
    assert.equal(howdahServer.args.length, 1);
    assert.ok(howdahServer.args[0].endsWith(path.join('out', 'editorContextServer.js')) && fs.existsSync(howdahServer.args[0]), howdahServer.args[0]);
    const env = new Map(howdahServer.env.map((e) => [e.name, e.value]));
    assert.equal(env.get('ELECTRON_RUN_AS_NODE'), '1');
    const socket = env.get('HOWDAH_EDITOR_CONTEXT_SOCKET') ?? '';
    assert.ok(process.platform === 'win32' ? socket.startsWith('\\\\.\\pipe\\') : fs.statSync(socket).isSocket(), socket);
    assert.ok((env.get('HOWDAH_EDITOR_CONTEXT_TOKEN') ?? '').length >= 40);
  });

  it('reads the unsaved buffer, the selection, the Problems list and a definition from VS Code', async () => {
    const api = await howdah();
    await api.newSession(await registerAgent('ec', 'test:echo', { FAKE_AGENT_LOG: log }));
    const [entry] = (await serversSent(log)).filter((s) => s.name === 'howdah');
    const client = await connect(entry);
    clients.push(client);

    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), '  // not saved yet\n'));
    assert.ok(editor.document.isDirty);
    const read = await client.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(read.isError, false, text(read));
    assert.match(text(read), /with unsaved changes/);
    assert.match(text(read), /\n {2}\/\/ not saved yet\n {2}return 1;/);
    assert.ok(!fs.readFileSync(file, 'utf8').includes('not saved yet'), 'the disk does not have it: the text came from the editor');

    editor.selection = new vscode.Selection(0, 16, 0, 21);
    const selection = text(await client.callTool({ name: 'selection', arguments: {} }));
    assert.equal(selection, `Selections in ${file}:\n1:17-1:22:\ngreet`);
    const editors = text(await client.callTool({ name: 'open_editors', arguments: {} }));
    assert.ok(editors.includes(`${file} (active, unsaved changes, typescript)`), editors);

    const diagnostics = vscode.languages.createDiagnosticCollection('howdah-ec-test');
    disposables.push(diagnostics);
    const problem = new vscode.Diagnostic(new vscode.Range(4, 0, 4, 5), 'greet is called for nothing', vscode.DiagnosticSeverity.Warning);
    problem.source = 'ec-lint';
    problem.code = 'E42';
    diagnostics.set(editor.document.uri, [problem]);
    const problems = text(await client.callTool({ name: 'diagnostics', arguments: { path: file } }));
    assert.ok(problems.includes(`${file}:5:1-5:6 warning ec-lint(E42): greet is called for nothing`), problems);

    disposables.push(
      vscode.languages.registerDefinitionProvider({ pattern: '**/ec-*.ts' }, { provideDefinition: (doc) => new vscode.Location(doc.uri, new vscode.Range(0, 16, 0, 21)) }),
    );
    const definition = text(await client.callTool({ name: 'definition', arguments: { path: file, line: 5, character: 2 } }));
    assert.ok(definition.includes(`${file}:1:17-1:22: export function greet() {`), definition);

    const outside = await client.callTool({ name: 'read_file', arguments: { path: path.join(os.homedir(), '.bashrc') } });
    assert.equal(outside.isError, true);
    assert.match(text(outside), /^Refused path .*outside the workspace folders/);
  });

  it("a closed session's token is refused, while another session's server still answers", async () => {
    const api = await howdah();
    const closing = await api.newSession(await registerAgent('ec', 'test:echo', { FAKE_AGENT_LOG: log }));
    const [closedEntry] = (await serversSent(log)).filter((s) => s.name === 'howdah');
    const otherLog = path.join(path.dirname(log), 'other.jsonl');
    await api.newSession(await registerAgent('ec', 'test:echo', { FAKE_AGENT_LOG: otherLog }));
    const [openEntry] = (await serversSent(otherLog)).filter((s) => s.name === 'howdah');
    const closedToken = closedEntry.env.find((e) => e.name === 'HOWDAH_EDITOR_CONTEXT_TOKEN')?.value;
    assert.notEqual(closedToken, openEntry.env.find((e) => e.name === 'HOWDAH_EDITOR_CONTEXT_TOKEN')?.value, 'one token per session');

    const early = await connect(closedEntry);
    clients.push(early);
    assert.equal((await early.callTool({ name: 'selection', arguments: {} })).isError, false);
    await api.close(closing);
    const afterClose = await early.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(afterClose.isError, true);
    assert.match(text(afterClose), /does not belong to an open Howdah session/);
    const late = await connect(closedEntry);
    clients.push(late);
    assert.match(text(await late.callTool({ name: 'selection', arguments: {} })), /does not belong to an open Howdah session/);

    const open = await connect(openEntry);
    clients.push(open);
    const read = await open.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(read.isError, false, text(read));
    assert.match(text(read), /from disk \(not open in the editor\)\]\nexport function greet/);
  });

  it('a restart passes the same server on session/load, and it still answers', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('ec', 'load', { FAKE_AGENT_LOG: log }));
    const [first] = (await serversSent(log)).filter((s) => s.name === 'howdah');
    await api.restart(key);
    // Nothing in the transcript yet: the restart loads the session (its replay becomes the transcript).
    const resumed = await waitFor('session/load in the agent log', () =>
      fs.readFileSync(log, 'utf8').split('\n').find((l) => l.includes('"session/load"') && l.includes('"dir":"in"')),
    );
    const [again] = (JSON.parse(resumed) as { msg: { params: { mcpServers: StdioEntry[] } } }).msg.params.mcpServers.filter((s) => s.name === 'howdah');
    assert.deepEqual(again, first, 'the same entry, token included: the token belongs to the session, not to one agent process');
    const client = await connect(again);
    clients.push(client);
    assert.equal((await client.callTool({ name: 'open_editors', arguments: {} })).isError, false);
  });

  it('is not passed when howdah.editorContext is off', async () => {
    const config = vscode.workspace.getConfiguration('howdah');
    await config.update('editorContext', false, vscode.ConfigurationTarget.Global);
    try {
      const api = await howdah();
      await api.newSession(await registerAgent('ec', 'test:echo', { FAKE_AGENT_LOG: log }));
      assert.deepEqual((await serversSent(log)).map((s) => s.name), []);
    } finally {
      await config.update('editorContext', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
