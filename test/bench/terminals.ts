/**
 * Issue 6's benchmark: a command writes 100 MB to stdout; we capture it with a 64 KB `outputByteLimit`, as
 * `terminal/create` does (process tree, per-stream UTF-8 decoding, the agent's byte-limited buffer, the 1 MB replay
 * history and the change events a VS Code terminal would follow). Reported: throughput in MB/s, and the CPU time the
 * host (this process) spends per MB, side by side with the floor — the same child piped into a loop that only counts
 * bytes. Rounds are interleaved so machine noise hits both alike; the median round is reported. No `vscode`.
 */
import * as os from 'node:os';
import { spawn } from 'node:child_process';
import { ManagedTerminal } from '../../src/terminals/managedTerminal';

const MB = 1024 * 1024;
const TOTAL_MB = Number(process.env.BENCH_TERMINAL_MB ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LIMIT = 64 * 1024;
/** The writer: 100 MB of text lines (ASCII with a two-byte character per line) in 64 KB writes. */
const WRITER = `
const line = 'é' + 'x'.repeat(125) + '\\n';
const chunk = line.repeat(512);
let left = ${TOTAL_MB} * 1024 * 1024;
function write() {
  while (left > 0) {
    const piece = left >= Buffer.byteLength(chunk) ? chunk : 'y'.repeat(left);
    left -= Buffer.byteLength(piece);
    if (!process.stdout.write(piece)) return process.stdout.once('drain', write);
  }
}
write();
`;

interface Result {
  ms: number;
  cpuMs: number;
  bytes: number;
}

async function measure(body: () => Promise<number>): Promise<Result> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const bytes = await body();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, bytes };
}

/** Floor: spawn the writer, count the bytes it writes, nothing else. */
function floor(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WRITER], { stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = 0;
    child.stdout.on('data', (b: Buffer) => (bytes += b.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

/** Ours: the whole capture path of terminal/create, with a follower counting what a terminal view would receive. */
async function ours(): Promise<number> {
  const terminal = await ManagedTerminal.start({
    id: 'bench',
    commandLine: 'writer',
    plan: { file: process.execPath, args: ['-e', WRITER], viaShell: false },
    cwd: os.tmpdir(),
    env: process.env,
    outputByteLimit: LIMIT,
  });
  let followed = 0;
  const following = terminal.follow(
    (text) => (followed += text.length),
    () => {},
  );
  await terminal.waitForExit();
  following.dispose();
  const { output, truncated } = terminal.read();
  if (!truncated || Buffer.byteLength(output) > LIMIT || !output.endsWith('x\n')) throw new Error('capture is wrong');
  await terminal.release();
  return TOTAL_MB * MB;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const results: Record<'floor' | 'ours', Result[]> = { floor: [], ours: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.floor.push(await measure(floor));
    results.ours.push(await measure(ours));
  }
  const row = (name: string, rs: Result[]) => {
    const ms = median(rs.map((r) => r.ms));
    const cpu = median(rs.map((r) => r.cpuMs));
    const mb = rs[0].bytes / MB;
    return { name, ms, mbPerSecond: mb / (ms / 1000), cpuMsPerMb: cpu / mb };
  };
  const f = row('floor (count bytes)', results.floor);
  const o = row('ours (terminal/create capture)', results.ours);
  console.log(`${TOTAL_MB} MB written by a child process, outputByteLimit ${LIMIT / 1024} KB, median of ${ROUNDS} rounds (node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'})`);
  for (const r of [f, o]) {
    console.log(`  ${r.name.padEnd(32)} ${r.ms.toFixed(0).padStart(6)} ms  ${r.mbPerSecond.toFixed(0).padStart(5)} MB/s  host CPU ${r.cpuMsPerMb.toFixed(2)} ms/MB`);
  }
  console.log(`  ours / floor: time ×${(o.ms / f.ms).toFixed(2)}, host CPU ×${(o.cpuMsPerMb / f.cpuMsPerMb).toFixed(2)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
