import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { age, ENGINES, FsSpy, sha, TempTree } from './snapshotSupport';

for (const engine of ENGINES) describe(`turn snapshot: refresh (${engine.name})`, () => {
  let t: TempTree;
  beforeEach(() => (t = new TempTree(engine)));
  afterEach(() => t.dispose());

  const tree = (n: number): string[] => Array.from({ length: n }, (_, i) => t.write(`d${i % 5}/sub${i % 3}/f${i}.txt`, `file ${i}\n`.repeat(1 + (i % 4))));

  it('reads every file the first time, and nothing the second time when nothing changed', async () => {
    const files = tree(100);
    const snap = t.snapshot();
    const first = await snap.refresh();
    assert.equal(snap.engineKind, engine.name, 'the engine asked for is the one used');
    const s1 = snap.stats();
    assert.equal(s1.filesSeen, 100);
    assert.equal(s1.filesRead, 100);
    assert.equal(s1.bytesRead, files.reduce((n, f) => n + fs.statSync(f).size, 0));
    assert.ok(s1.blobsWritten > 0 && s1.blobsWritten <= 100);
    for (const f of files) {
      const got = first.lookup(f);
      assert.deepEqual(got, { kind: 'file', hash: sha(fs.readFileSync(f)), size: fs.statSync(f).size });
      assert.deepEqual(await snap.read(sha(fs.readFileSync(f))), fs.readFileSync(f));
    }
    const second = await snap.refresh();
    assert.equal(snap.stats().filesRead, 0);
    assert.equal(snap.stats().filesSeen, 100);
    assert.notEqual(second, first, 'every refresh makes a new manifest');
    assert.deepEqual(second.changesSince(first), []);
  });

  it('re-reads exactly the files that changed', async () => {
    const files = tree(100);
    const snap = t.snapshot();
    const before = await snap.refresh();
    const changed = files.filter((_, i) => i % 10 === 3);
    const was = fs.readFileSync(changed[0]);
    for (const f of changed) fs.appendFileSync(f, 'more\n');
    const after = await snap.refresh();
    assert.equal(snap.stats().filesRead, 10);
    assert.deepEqual(
      after.changesSince(before).map((c) => c.path).sort(),
      [...changed].sort(),
    );
    assert.deepEqual(before.lookup(changed[0]), { kind: 'file', hash: sha(was), size: was.length }, 'the old manifest is untouched');
    assert.deepEqual(after.lookup(changed[0]), { kind: 'file', hash: sha(fs.readFileSync(changed[0])), size: was.length + 5 });
  });

  it('catches a same-size rewrite whose mtime was set back', async () => {
    const f = t.write('a.txt', 'aaaa');
    const snap = t.snapshot();
    await snap.refresh();
    const { mtime, atime } = fs.statSync(f);
    fs.writeFileSync(f, 'bbbb');
    fs.utimesSync(f, atime, mtime);
    const m = await snap.refresh();
    assert.equal(snap.stats().filesRead, 1);
    assert.deepEqual(m.lookup(f), { kind: 'file', hash: sha('bbbb'), size: 4 });
  });

  it('racy files: one modified near the last refresh is read again even when its whole stat looks the same', async function () {
    if (engine.name === 'worker') this.skip(); // lstat is simulated on this thread; snapshotWorker.test.ts does the worker's
    // A file system with coarse timestamps can leave size, mtime and ctime all equal after a rewrite in the same
    // tick. Simulated: lstat keeps answering the stat from before the rewrite.
    const fresh = t.write('fresh.txt', 'aaaa', true);
    const old = t.write('old.txt', 'cccc');
    const snap = t.snapshot();
    await snap.refresh();
    const spy = new FsSpy();
    try {
      for (const f of [fresh, old]) {
        const st = fs.lstatSync(f, { bigint: true });
        spy.lstatOverride.set(f, () => st);
      }
      fs.writeFileSync(fresh, 'bbbb');
      fs.writeFileSync(old, 'dddd');
      const m = await snap.refresh();
      assert.deepEqual(m.lookup(fresh), { kind: 'file', hash: sha('bbbb'), size: 4 }, 'modified within 2 s of the refresh: read again');
      assert.deepEqual(m.lookup(old), { kind: 'file', hash: sha('cccc'), size: 4 }, 'an old file with an equal stat is trusted (a watcher event would mark it)');
      snap.markDirty(old);
      assert.deepEqual((await snap.refresh()).lookup(old), { kind: 'file', hash: sha('dddd'), size: 4 });
    } finally {
      spy.restore();
    }
  });

  it('a file fresh at one refresh is read again at the next, then trusted once it is older', async () => {
    const f = t.write('f.txt', 'x', true);
    const snap = t.snapshot();
    await snap.refresh();
    await snap.refresh();
    assert.equal(snap.stats().filesRead, 1, 'still within 2 s of the previous refresh start');
    age(f);
    await snap.refresh();
    await snap.refresh();
    assert.equal(snap.stats().filesRead, 0);
  });

  it('markDirty forces a read of a file, or of every file under a folder', async () => {
    tree(20);
    const snap = t.snapshot();
    await snap.refresh();
    snap.markDirty(t.p('d1/sub1/f1.txt'));
    await snap.refresh();
    assert.equal(snap.stats().filesRead, 1);
    await snap.refresh();
    assert.equal(snap.stats().filesRead, 0, 'dirty once only');
    snap.markDirty(t.p('d2'));
    await snap.refresh();
    assert.equal(snap.stats().filesRead, 4);
  });

  it('concurrent refresh calls share one run', async () => {
    tree(10);
    const snap = t.snapshot();
    const [a, b] = await Promise.all([snap.refresh(), snap.refresh()]);
    assert.equal(a, b);
    assert.equal(snap.stats().filesRead, 10);
  });

  it('caps: a file over maxFileBytes keeps its stat only; past maxTotalBytes new content is skipped', async () => {
    const big = t.write('big.bin', Buffer.alloc(5000, 1));
    for (let i = 0; i < 5; i++) t.write(`f${i}.txt`, String(i).repeat(1000));
    t.write('same.txt', '0'.repeat(1000)); // the same content as f0: stored once, counted once
    const snap = t.snapshot({ maxFileBytes: 4096, maxTotalBytes: 2500 });
    const m = await snap.refresh();
    assert.deepEqual(m.lookup(big), { kind: 'skipped', reason: 'too-large', detail: '5000 bytes', size: 5000 });
    const kinds = [0, 1, 2, 3, 4].map((i) => m.lookup(t.p(`f${i}.txt`)));
    assert.equal(kinds.filter((k) => k.kind === 'file').length, 2);
    assert.equal(kinds.filter((k) => k.kind === 'skipped' && k.reason === 'over-total').length, 3);
    const s = snap.stats();
    const same = m.lookup(t.p('same.txt'));
    assert.equal(s.skipped['over-total'], 3 + (same.kind === 'skipped' ? 1 : 0), 'same.txt is free only when its content got in');
    assert.equal(s.skipped['too-large'], 1);
    assert.equal(s.totalBytes, 2000);
    assert.ok(!fs.readdirSync(path.join(t.store, 'blobs')).some((d) => fs.readdirSync(path.join(t.store, 'blobs', d)).includes(sha(Buffer.alloc(5000, 1)).slice(2))));
    // Room made: skipped content is tried again (stat unchanged), one more fits.
    const stored = [0, 1, 2, 3, 4].find((i) => kinds[i].kind === 'file')!;
    fs.rmSync(t.p(`f${stored}.txt`));
    if (stored === 0) fs.rmSync(t.p('same.txt'));
    const m2 = await snap.refresh();
    // The room goes to whichever skipped file is read first: same.txt (f0's content) counts as one of them.
    const recorded = ['f0', 'f1', 'f2', 'f3', 'f4', 'same'].filter((n) => m2.lookup(t.p(`${n}.txt`)).kind === 'file');
    assert.equal(recorded.filter((n) => n !== 'same' || !recorded.includes('f0')).length, 2, `recorded: ${recorded.join(', ')}`);
    assert.equal(snap.stats().totalBytes, 2000);
  });

  it('unreadable files and folders are recorded with the error code, not thrown', async function () {
    if (engine.name === 'worker') this.skip(); // failures are injected on this thread; snapshotWorker.test.ts does the worker's
    const f = t.write('locked.txt', 'secret');
    t.write('closed/inner.txt', 'x');
    const spy = new FsSpy();
    spy.failures.set(f, 'EACCES');
    spy.failures.set(t.p('closed'), 'EACCES');
    const lines: string[] = [];
    try {
      const m = await t.snapshot({ log: (l) => lines.push(l) }).refresh();
      assert.deepEqual(m.lookup(f), { kind: 'skipped', reason: 'unreadable', detail: 'EACCES', size: 6 });
      assert.deepEqual(m.lookup(t.p('closed/inner.txt')), { kind: 'skipped', reason: 'unreadable', detail: 'folder: EACCES' });
      assert.ok(lines.some((l) => l.includes('closed')));
    } finally {
      spy.restore();
    }
  });

  it('symbolic links are not followed: their target is recorded', async function () {
    const outside = path.join(t.base, 'elsewhere');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'x.txt'), 'x');
    try {
      fs.symlinkSync(outside, t.p('dirlink'));
      fs.symlinkSync('missing.txt', t.p('dangling'));
    } catch {
      this.skip();
    }
    const m = await t.snapshot().refresh();
    assert.deepEqual(m.lookup(t.p('dirlink')), { kind: 'symlink', target: outside });
    assert.deepEqual(m.lookup(t.p('dangling')), { kind: 'symlink', target: 'missing.txt' });
    assert.deepEqual([...m.paths()].sort(), [t.p('dangling'), t.p('dirlink')]);
  });

  it('a large file is streamed into the store and read back intact', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const f = t.write('large.bin', bytes);
    const snap = t.snapshot();
    const m = await snap.refresh();
    assert.deepEqual(m.lookup(f), { kind: 'file', hash: sha(bytes), size: bytes.length });
    assert.ok((await snap.read(sha(bytes)))!.equals(bytes));
    assert.deepEqual(fs.readdirSync(path.join(t.store, 'blobs')).filter((n) => n.endsWith('.tmp')), []);
  });
});
