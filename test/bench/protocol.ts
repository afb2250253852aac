/**
 * Issue 2's benchmark: 200,000 `agent_message_chunk` notifications from the fake agent over real stdio, measured
 * side by side in one run for (a) the floor — the same bytes split and JSON.parsed, nothing else —, (b) our protocol
 * layer delivering them to the session's reducer, and (c) the official SDK's client on the same stream. Rounds are
 * interleaved so machine noise hits every variant alike; the median round is reported.
 */
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { AgentConnection } from '../../src/acp/agentConnection';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import { Session } from '../../src/session/session';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const agentScript = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'fake-agent', 'agent.js');
const cwd = os.tmpdir();
const env = { ...process.env, FAKE_AGENT_CHUNKS: String(CHUNKS) };

interface Result {
  ms: number;
  chunks: number;
}

/**
 * Runs a variant and adds the CPU time this process spent on it (user + system, from spawning the agent to the end):
 * on a machine shared with other work, wall time mostly measures the neighbours, CPU time what the reader itself did.
 */
async function measured(variant: () => Promise<Result>): Promise<Result & { cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await variant();
  const used = process.cpuUsage(before);
  return { ...result, cpuMs: (used.user + used.system) / 1000 };
}

/** Floor: spawn, hand-written handshake, then split + JSON.parse every line until the prompt's answer. */
async function floor(): Promise<Result> {
  const child = spawn(process.execPath, [agentScript, 'bench-chunks'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
  let chunks = 0;
  let started = 0;
  let rest = '';
  const done = new Promise<number>((resolve) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (data: string) => {
      const lines = (rest + data).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (!line) continue;
        const msg = JSON.parse(line);
        if (msg.method === 'session/update') chunks++;
        else if (msg.id === 1) send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd, mcpServers: [] } });
        else if (msg.id === 2) {
          started = performance.now();
          send({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: msg.result.sessionId, prompt: [{ type: 'text', text: 'go' }] } });
        } else if (msg.id === 3) resolve(performance.now() - started);
      }
    });
  });
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
  const ms = await done;
  child.kill();
  return { ms, chunks };
}

/** Ours: AgentConnection (framing, JSON-RPC, zod schemas, gate) into a Session's reducer. */
async function ours(): Promise<Result> {
  let session: Session | undefined;
  let chunks = 0;
  const connection = new AgentConnection(
    { command: process.execPath, args: [agentScript, 'bench-chunks'], cwd, env: { FAKE_AGENT_CHUNKS: String(CHUNKS) } },
    {
      name: 'bench',
      clientInfo: { name: 'howdah-bench', version: '0' },
      capabilities: buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'off', terminalAuth: false }),
      handlers: {
        sessionUpdate: (n) => {
          chunks++;
          session?.apply(n.update);
        },
        requestPermission: async () => ({ outcome: 'cancelled' }),
      },
    },
  );
  await connection.start();
  const created = await connection.acp.call('newSession', { cwd, mcpServers: [] });
  session = new Session(connection.acp, created.sessionId, created);
  const started = performance.now();
  await session.prompt([{ type: 'text', text: 'go' }]);
  const ms = performance.now() - started;
  await connection.stop();
  return { ms, chunks };
}

/** The official SDK's client (2.x app API) on the same agent and stream. */
async function sdk(): Promise<Result> {
  const child = spawn(process.execPath, [agentScript, 'bench-chunks'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  let chunks = 0;
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const app = client({ name: 'howdah-bench-sdk' })
    .onNotification(methods.client.session.update, () => {
      chunks++;
    })
    .onRequest(methods.client.session.requestPermission, async () => ({ outcome: { outcome: 'cancelled' } }));
  const ms = await app.connectWith(stream, async (ctx) => {
    await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const created = await ctx.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const started = performance.now();
    await ctx.request(methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'go' }] });
    return performance.now() - started;
  });
  child.kill();
  return { ms, chunks };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const variants = { floor, ours, sdk } as const;
  const times: Record<keyof typeof variants, number[]> = { floor: [], ours: [], sdk: [] };
  const cpu: Record<keyof typeof variants, number[]> = { floor: [], ours: [], sdk: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(variants) as (keyof typeof variants)[]) {
      const result = await measured(variants[name]);
      if (result.chunks !== CHUNKS) throw new Error(`${name} saw ${result.chunks} of ${CHUNKS} chunks`);
      times[name].push(result.ms);
      cpu[name].push(result.cpuMs);
    }
  }
  const line = (name: keyof typeof variants, label: string) => {
    const ms = median(times[name]);
    return `  ${label.padEnd(38)} ${ms.toFixed(0).padStart(6)} ms  ${((CHUNKS / ms) * 1000).toFixed(0).padStart(8)} msg/s   rounds: ${times[name].map((t) => t.toFixed(0)).join(', ')}   CPU ${median(cpu[name]).toFixed(0)} ms (rounds: ${cpu[name].map((t) => t.toFixed(0)).join(', ')})`;
  };
  console.log(`protocol: ${CHUNKS} agent_message_chunk notifications over real stdio (median of ${ROUNDS} interleaved rounds)`);
  console.log(line('floor', '(a) floor: split + JSON.parse'));
  console.log(line('ours', 'Howdah: acp layer → session reducer'));
  console.log(line('sdk', '(b) @agentclientprotocol/sdk client'));
  const ratioFloor = median(times.ours) / median(times.floor);
  const ratioSdk = median(times.sdk) / median(times.ours);
  const cpuRatio = median(cpu.ours) / median(cpu.floor);
  console.log(`  ours / floor = ${ratioFloor.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (target ≤ 1.3×)   sdk / ours = ${ratioSdk.toFixed(2)}× (target > 1×: faster than the SDK)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
