/**
 * Issue 16's benchmark: `read_file` of a 100-line slice of a 10 MB document through the editor-context MCP server —
 * the SDK's client in this process, the bundled server script as its own process over stdio, the script calling back
 * over the private socket to the channel and the tool handler in this process — next to the same slice read through
 * `fs/read_text_file` over ACP (a tiny agent process asking, our protocol layer answering), in the same run. Then
 * `diagnostics` with 10,000 problems: time and the size of the capped answer.
 *
 * What stands in for VS Code: a document held as an array of lines (what the extension host's document model keeps),
 * sliced the same way for both paths. A real TextDocument needs an extension host; `documentSlice` over one is a
 * getText of a range, of the same order. Both paths resolve the path through the same Sandbox.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentConnection } from '../../src/acp/agentConnection';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import { EditorContextChannel } from '../../src/editorContext/channel';
import type { EditorPort, Problem } from '../../src/editorContext/editorPort';
import { editorToolHandler } from '../../src/editorContext/toolHandler';
import { ENV_SOCKET, ENV_TOKEN } from '../../src/editorContext/wire';
import { Sandbox } from '../../src/workspace/sandbox';

const READS = Number(process.env.BENCH_READS ?? 200);
const ROUNDS = 3;
const LINES = 100_000;
const SCRIPT = path.join(__dirname, 'editorContextServer.js');

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-bench-ec-')));
const file = path.join(root, 'big.ts');
fs.writeFileSync(file, '');
const lines = Array.from({ length: LINES }, (_, i) => `const line${String(i).padStart(6, '0')} = ${JSON.stringify('x'.repeat(70))}; // ${i}`.padEnd(99, ' '));
const documentSize = lines.reduce((n, l) => n + l.length + 1, 0);
const slice = (line: number, limit: number) => `${lines.slice(line - 1, line - 1 + limit).join('\n')}\n`;
const sandbox = new Sandbox([root]);
const problems: Problem[] = Array.from({ length: 10_000 }, (_, i) => ({
  path: path.join(root, `src/f${i % 50}.ts`),
  span: { start: { line: i % 900, character: 4 }, end: { line: i % 900, character: 12 } },
  severity: (i % 3) as 0 | 1 | 2,
  message: `Property 'value${i}' does not exist on type 'Thing'.`,
  source: 'ts',
  code: '2339',
}));

const port: EditorPort = {
  readSlice: async (_real, _view, line, limit) => ({ content: slice(line, limit), fromEditor: true, unsaved: true, totalLines: LINES }),
  openEditors: () => [],
  selection: () => undefined,
  diagnostics: () => problems,
  definition: async () => [],
  references: async () => [],
  hover: async () => [],
  workspaceSymbols: async () => [],
  documentSymbols: async () => [],
  lineText: async () => undefined,
};

/** Line numbers to read, spread over the document, the same for both paths. */
const starts = Array.from({ length: READS }, (_, i) => 1 + ((i * 7919) % (LINES - 100)));

/** An agent that, on its prompt, reads every slice with fs/read_text_file and writes each round trip (ms) to $OUT. */
const AGENT = `
const lines = []; let buf = ''; let id = 100; const waiting = new Map();
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const ask = (method, params) => new Promise((r) => { const i = ++id; waiting.set(i, r); send({ id: i, method, params }); });
process.stdin.on('data', async (c) => {
  buf += c; let at;
  while ((at = buf.indexOf('\\n')) >= 0) {
    const m = JSON.parse(buf.slice(0, at)); buf = buf.slice(at + 1);
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'bench' } });
    else if (m.method === 'session/prompt') {
      const times = [];
      for (const line of JSON.parse(process.env.STARTS)) {
        const t = performance.now();
        const r = await ask('fs/read_text_file', { sessionId: 'bench', path: process.env.FILE, line, limit: 100 });
        if (!r.result || r.result.content.split('\\n').length !== 101) throw new Error('bad read ' + JSON.stringify(r).slice(0, 200));
        times.push(performance.now() - t);
      }
      require('fs').writeFileSync(process.env.OUT, JSON.stringify(times));
      send({ id: m.id, result: { stopReason: 'end_turn' } });
    } else if (m.id !== undefined && waiting.has(m.id)) waiting.get(m.id)(m);
  }
});`;

async function acpRound(): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-bench-acp-'));
  const out = path.join(dir, 'times.json');
  const connection = new AgentConnection(
    { command: process.execPath, args: ['-e', AGENT], cwd: root, env: { FILE: file, OUT: out, STARTS: JSON.stringify(starts) } },
    {
      name: 'bench',
      clientInfo: { name: 'howdah-bench', version: '0' },
      capabilities: buildClientCapabilities({ readFiles: true, writeFiles: 'off', terminal: 'off', terminalAuth: false }),
      handlers: {
        sessionUpdate: () => undefined,
        requestPermission: async () => ({ outcome: 'cancelled' }),
        // As AgentFiles.read does for an open document: the sandbox, then the slice.
        readTextFile: async (params) => {
          await sandbox.viewPath(await sandbox.resolve(params.path, 'read'));
          return { content: slice(params.line ?? 1, params.limit ?? LINES) };
        },
      },
    },
  );
  await connection.start();
  const { sessionId } = await connection.acp.call('newSession', { cwd: root, mcpServers: [] });
  await connection.acp.call('prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
  await connection.stop();
  const times = JSON.parse(fs.readFileSync(out, 'utf8')) as number[];
  fs.rmSync(dir, { recursive: true, force: true });
  return times;
}

async function mcpClient(channel: EditorContextChannel): Promise<Client> {
  const { token } = channel.register(editorToolHandler(() => sandbox, port));
  const client = new Client({ name: 'howdah-bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env: { [ENV_SOCKET]: await channel.address(), [ENV_TOKEN]: token, PATH: process.env.PATH ?? '' } }));
  return client;
}

async function mcpRound(client: Client): Promise<number[]> {
  const times: number[] = [];
  for (const line of starts) {
    const t = performance.now();
    const result = (await client.callTool({ name: 'read_file', arguments: { path: file, line, limit: 100 } })) as { content: { text: string }[]; isError?: boolean };
    times.push(performance.now() - t);
    if (result.isError || !result.content[0].text.includes(`lines ${line}-${line + 99} of ${LINES}`)) throw new Error(`bad read: ${result.content[0].text.slice(0, 200)}`);
  }
  return times;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const figures = (values: number[]) => `median ${quantile(values, 0.5).toFixed(3)} ms   p99 ${quantile(values, 0.99).toFixed(3)} ms   (${values.length} reads)`;

async function main(): Promise<void> {
  const channel = new EditorContextChannel();
  const client = await mcpClient(channel);
  const acp: number[] = [];
  const mcp: number[] = [];
  // Interleaved rounds, so machine noise hits both alike; the first MCP calls warm the server process up.
  await mcpRound(client);
  for (let round = 0; round < ROUNDS; round++) {
    acp.push(...(await acpRound()));
    mcp.push(...(await mcpRound(client)));
  }
  console.log(`editorContext: read 100 lines of a ${(documentSize / 1e6).toFixed(1)} MB document (${LINES} lines), round trip, ${ROUNDS} interleaved rounds`);
  console.log(`  fs/read_text_file over ACP (agent process → Howdah)      ${figures(acp)}`);
  console.log(`  read_file via the howdah MCP server (client → script → socket → Howdah)  ${figures(mcp)}`);
  console.log(`  MCP / ACP median = ${(quantile(mcp, 0.5) / quantile(acp, 0.5)).toFixed(2)}×`);

  const diag: number[] = [];
  let size = 0;
  let shown = '';
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    const result = (await client.callTool({ name: 'diagnostics', arguments: {} })) as { content: { text: string }[] };
    diag.push(performance.now() - t);
    size = Buffer.byteLength(result.content[0].text);
    shown = result.content[0].text.split('\n').pop() ?? '';
  }
  console.log(`  diagnostics, 10,000 problems: median ${quantile(diag, 0.5).toFixed(2)} ms, p99 ${quantile(diag, 0.99).toFixed(2)} ms (20 calls); answer ${(size / 1024).toFixed(1)} KB, ending ${shown}`);
  await client.close();
  channel.dispose();
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
