import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { processAlive, ProcessTree, treeMembers } from '../../../src/terminals/processTree';

const node = process.execPath;
/** Every tree a test started: killed afterwards whatever the test did, so a failure leaves nothing running. */
const started: Promise<ProcessTree>[] = [];
const start = (args: string[], file = node) => {
  let output = '';
  const ready = ProcessTree.start({ file, args, cwd: os.tmpdir(), env: process.env }, (t) => (output += t));
  started.push(ready.catch(() => undefined as unknown as ProcessTree));
  return { ready, output: () => output };
};

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pidsIn = (text: string, label: string) => [...text.matchAll(new RegExp(`(?<![a-z])${label}:(\\d+)`, 'g'))].map((m) => Number(m[1]));
const hasSetsid = (() => {
  try {
    execFileSync('setsid', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('terminals: process trees', function () {
  this.timeout(20000);
  if (process.platform === 'win32') return;
  afterEach(async () => {
    for (const tree of await Promise.all(started.splice(0))) tree?.killNow();
  });

  it('reports the exit code and the output of both streams', async () => {
    const run = start(['-e', "process.stdout.write('out\\n'); process.stderr.write('err\\n'); process.exit(7)"]);
    const tree = await run.ready;
    const status = await tree.exited;
    assert.deepEqual(status, { exitCode: 7, signal: null });
    assert.ok(run.output().includes('out\n') && run.output().includes('err\n'), run.output());
    assert.equal(tree.running, false);
  });

  it('all output is read before the exit is reported', async () => {
    const run = start(['-e', "const s = 'x'.repeat(1 << 16); for (let i = 0; i < 64; i++) process.stdout.write(s); process.stdout.write('LAST')"]);
    const tree = await run.ready;
    await tree.exited;
    assert.equal(run.output().length, 64 * 65536 + 4);
    assert.ok(run.output().endsWith('LAST'));
  });

  it('a program that does not exist rejects start', async () => {
    await assert.rejects(ProcessTree.start({ file: 'howdah-no-such-program-xyz', args: [], cwd: os.tmpdir(), env: process.env }, () => {}), /ENOENT/);
  });

  it('stdin is closed: a command that reads input gets end-of-file, not a hang', async () => {
    const run = start(['-e', "process.stdin.resume(); process.stdin.on('end', () => { console.log('eof'); })"]);
    const tree = await run.ready;
    assert.deepEqual(await tree.exited, { exitCode: 0, signal: null });
    assert.equal(run.output(), 'eof\n');
  });

  it('kill: SIGTERM ends a well-behaved process, and its own signal is reported', async () => {
    const run = start(['-e', "console.log('up'); setInterval(() => {}, 1000)"]);
    const tree = await run.ready;
    await until(() => run.output().includes('up'));
    const status = await tree.kill(2000);
    assert.deepEqual(status, { exitCode: null, signal: 'SIGTERM' });
    assert.ok(!processAlive(tree.pid));
  });

  it('kill: a process that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const run = start(['-e', "process.on('SIGTERM', () => console.log('ignored')); console.log('up'); setInterval(() => {}, 1000)"]);
    const tree = await run.ready;
    await until(() => run.output().includes('up'));
    const began = Date.now();
    const status = await tree.kill(400);
    assert.deepEqual(status, { exitCode: null, signal: 'SIGKILL' });
    assert.ok(Date.now() - began >= 380, 'it waited for the grace period');
    await until(() => run.output().includes('ignored'));
    assert.ok(!processAlive(tree.pid));
  });

  it('kill: children and grandchildren die with the leader, also ones ignoring SIGTERM', async () => {
    const script = [
      "const { spawn } = require('child_process');",
      "const stubborn = \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)\";",
      'const a = spawn(process.execPath, ["-e", stubborn], { stdio: "ignore" });',
      // A grandchild through a shell.
      'const b = spawn("sh", ["-c", "sleep 300 & echo grandchild:$!; wait"], { stdio: ["ignore", "inherit", "ignore"] });',
      "console.log('child:' + a.pid); console.log('child:' + b.pid);",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const run = start(['-e', script]);
    const tree = await run.ready;
    await until(() => pidsIn(run.output(), 'child').length === 2 && pidsIn(run.output(), 'grandchild').length === 1);
    const all = [...pidsIn(run.output(), 'child'), ...pidsIn(run.output(), 'grandchild')];
    assert.ok(all.every(processAlive));
    await tree.kill(300);
    await until(() => !all.some(processAlive), 3000);
    assert.equal(tree.treeAlive(), false);
  });

  it('kill after the leader exited still ends the children it left behind', async () => {
    const run = start(['-c', 'sleep 300 & echo bg:$!'], '/bin/sh');
    const tree = await run.ready;
    assert.deepEqual(await tree.exited, { exitCode: 0, signal: null });
    const [bg] = pidsIn(run.output(), 'bg');
    assert.ok(bg && processAlive(bg), 'the background child outlives the shell');
    assert.equal(tree.treeAlive(), true);
    await tree.kill(300);
    await until(() => !processAlive(bg));
    assert.equal(tree.treeAlive(), false);
  });

  (process.platform === 'linux' && hasSetsid ? it : it.skip)('kill reaches a child that moved to its own session (Linux)', async () => {
    const run = start(['-c', 'setsid sleep 300 & echo escaped:$!; sleep 300'], '/bin/sh');
    const tree = await run.ready;
    await until(() => pidsIn(run.output(), 'escaped').length === 1);
    const [escaped] = pidsIn(run.output(), 'escaped');
    await until(() => treeMembers(tree.pid).includes(escaped));
    await tree.kill(300);
    await until(() => !processAlive(escaped));
  });

  it('killNow sends SIGKILL at once', async () => {
    const run = start(['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000)"]);
    const tree = await run.ready;
    await until(() => run.output().includes('up'));
    tree.killNow();
    assert.deepEqual(await tree.exited, { exitCode: null, signal: 'SIGKILL' });
  });
});
