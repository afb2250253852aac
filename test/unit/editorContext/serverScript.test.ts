import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EditorContextChannel, UNKNOWN_TOKEN } from '../../../src/editorContext/channel';
import { editorToolHandler } from '../../../src/editorContext/toolHandler';
import { TOOL_NAMES } from '../../../src/editorContext/tools';
import { ENV_SOCKET, ENV_TOKEN } from '../../../src/editorContext/wire';
import { Sandbox } from '../../../src/workspace/sandbox';
import { escapeFixture } from '../support/sandboxEscapes';
import { FakeEditor } from './fakeEditor';

/** The script as the unit build bundles it (the extension ships the same source as out/editorContextServer.js). */
const SCRIPT = path.join(__dirname, '..', 'editorContextServer.js');

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/** An MCP client on a fresh server process, started the way an agent starts a stdio MCP server. */
async function connect(address: string, token: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env: { [ENV_SOCKET]: address, [ENV_TOKEN]: token, PATH: process.env.PATH ?? '' }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'howdah-unit', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const text = (result: unknown) => (result as TextResult).content.map((c) => c.text).join('');

describe('editor context: the MCP server script and the host channel', function () {
  this.timeout(20000);
  const { root } = escapeFixture('howdah-ec-script-');
  const file = path.join(root, 'src', 'a.ts');
  const editor = new FakeEditor();
  editor.documents.set(file, { text: 'unsaved text\n', unsaved: true });
  const clients: Client[] = [];
  let channel: EditorContextChannel;

  beforeEach(() => (channel = new EditorContextChannel()));
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    channel.dispose();
  });

  it('lists exactly the tools, read-only, and answers read_file with the editor\'s unsaved text', async () => {
    const { token } = channel.register(editorToolHandler(() => new Sandbox([root]), editor));
    const { client } = await connect(await channel.address(), token);
    clients.push(client);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
    const read = tools.find((t) => t.name === 'read_file')!;
    assert.deepEqual(Object.keys(read.inputSchema.properties ?? {}).sort(), ['limit', 'line', 'path']);
    assert.deepEqual(read.inputSchema.required, ['path']);
    const result = await client.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(result.isError, false);
    assert.match(text(result), /with unsaved changes[^\n]*\nunsaved text\n$/);
    const refused = await client.callTool({ name: 'read_file', arguments: { path: path.join(root, '..', 'outside', 'secret.txt') } });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^Refused path .*outside the workspace folders/);
  });

  it('the SDK refuses arguments that do not match the schema before anything reaches the host', async () => {
    let reached = 0;
    const { token } = channel.register(async () => ((reached += 1), { text: 'reached' }));
    const { client } = await connect(await channel.address(), token);
    clients.push(client);
    const result = await client.callTool({ name: 'read_file', arguments: { path: file, line: 0 } }).catch((e: Error) => ({ content: [{ type: 'text', text: e.message }], isError: true }));
    assert.equal(result.isError, true);
    assert.match(text(result), /line/);
    assert.equal(reached, 0);
  });

  it('a token whose registration was disposed (its session closed) is refused, and so is a made-up one', async () => {
    const { token, registration } = channel.register(editorToolHandler(() => new Sandbox([root]), editor));
    const other = channel.register(editorToolHandler(() => new Sandbox([root]), editor));
    const { client } = await connect(await channel.address(), token);
    clients.push(client);
    assert.equal((await client.callTool({ name: 'selection', arguments: {} })).isError, false);
    registration.dispose();
    const closed = await client.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(closed.isError, true);
    assert.equal(text(closed), UNKNOWN_TOKEN);
    const forged = await connect(await channel.address(), 'not-a-token');
    clients.push(forged.client);
    assert.equal(text(await forged.client.callTool({ name: 'selection', arguments: {} })), UNKNOWN_TOKEN);
    assert.equal(channel.registrations, 1, 'the other session still answers');
    other.registration.dispose();
  });

  it('a host that goes away makes calls fail with a clear error at once, and the server keeps answering', async () => {
    const { token } = channel.register(editorToolHandler(() => new Sandbox([root]), editor));
    const address = await channel.address();
    const { client } = await connect(address, token);
    clients.push(client);
    assert.equal((await client.callTool({ name: 'open_editors', arguments: {} })).isError, false);
    channel.dispose();
    if (process.platform !== 'win32') assert.equal(fs.existsSync(path.dirname(address)), false, 'the private folder is removed');
    const gone = await client.callTool({ name: 'read_file', arguments: { path: file } });
    assert.equal(gone.isError, true);
    assert.match(text(gone), /^Howdah's editor context is not available: /);
    // Still alive: the next call fails the same way instead of finding a dead process.
    assert.match(text(await client.callTool({ name: 'selection', arguments: {} })), /not available/);
  });

  it('a handler that never answers does not hold other calls, and a host answer that arrives late is matched to its call', async () => {
    let release: (() => void) | undefined;
    const { token } = channel.register((tool) => (tool === 'hover' ? new Promise((resolve) => (release = () => resolve({ text: 'late hover' }))) : Promise.resolve({ text: `quick ${tool}` })));
    const { client } = await connect(await channel.address(), token);
    clients.push(client);
    const slow = client.callTool({ name: 'hover', arguments: { path: file, line: 1, character: 1 } });
    assert.equal(text(await client.callTool({ name: 'selection', arguments: {} })), 'quick selection');
    release!();
    assert.equal(text(await slow), 'late hover');
  });

  it('a peer that sends something else is dropped; a handler that throws is an error answer; the channel goes on', async () => {
    const net = await import('node:net');
    const address = await channel.address();
    const junk = net.createConnection(address);
    const closed = new Promise<void>((resolve) => junk.on('close', () => resolve()));
    junk.on('error', () => undefined);
    junk.write('GET / HTTP/1.1\r\n\r\n\n');
    await closed;
    const { token } = channel.register(() => {
      throw new Error('thrown at once');
    });
    const { client } = await connect(address, token);
    clients.push(client);
    const answer = await client.callTool({ name: 'selection', arguments: {} });
    assert.equal(answer.isError, true);
    assert.equal(text(answer), 'thrown at once');
  });

  it('the socket lives in a folder only this user can enter', async function () {
    if (process.platform === 'win32') this.skip();
    const address = await channel.address();
    assert.equal(fs.statSync(path.dirname(address)).mode & 0o777, 0o700);
  });

  it('without its socket and token the script exits with a message instead of serving', () => {
    const run = require('node:child_process').spawnSync(process.execPath, [SCRIPT], { env: { PATH: process.env.PATH }, encoding: 'utf8', input: '' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /HOWDAH_EDITOR_CONTEXT_SOCKET and HOWDAH_EDITOR_CONTEXT_TOKEN must be set/);
  });
});
