import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ExclusionRules } from '../../../src/edits/snapshot/rules';
import { SyncReader } from '../../../src/edits/snapshot/syncRead';
import { realSyncFs, SyncWalker, type SyncFs } from '../../../src/edits/snapshot/syncWalk';
import { ENGINES, sha, TempTree } from './snapshotSupport';

/** Racy thresholds: files modified at or after it are reported whatever their stat. */
const ALL_RACY = 0n;
const NONE_RACY = BigInt(Date.now() + 3_600_000) * 1_000_000n;

describe('turn snapshot: the worker thread', () => {
  let t: TempTree;
  beforeEach(() => (t = new TempTree(ENGINES[0])));
  afterEach(() => t.dispose());

  const walker = (io: SyncFs = realSyncFs) => new SyncWalker([t.root], new ExclusionRules(['**/node_modules/**'], true, t.store), io);
  const rel = (paths: string[]) => paths.map((p) => path.relative(t.root, p)).sort();

  it('after a full walk, reports only what is new, changed, dirty or racy, and what went', () => {
    t.write('a.txt', 'a');
    t.write('d/b.txt', 'b');
    t.write('d/c.txt', 'c');
    t.write('e/f.txt', 'f');
    const w = walker();
    const full = w.walk({ full: true, racyFromNs: NONE_RACY, dirty: [] });
    assert.deepEqual(rel(full.candidates.paths), ['a.txt', 'd/b.txt', 'd/c.txt', 'e/f.txt']);
    assert.deepEqual(rel(w.walk({ full: false, racyFromNs: NONE_RACY, dirty: [] }).candidates.paths), [], 'nothing changed');
    fs.appendFileSync(t.p('a.txt'), '!');
    t.write('new.txt', 'n');
    fs.rmSync(t.p('d/c.txt'));
    const next = w.walk({ full: false, racyFromNs: NONE_RACY, dirty: [t.p('e')] });
    assert.deepEqual(rel(next.candidates.paths), ['a.txt', 'e/f.txt', 'new.txt']);
    assert.deepEqual(rel(next.deleted), ['d/c.txt']);
    assert.equal(next.seen, 4);
    assert.deepEqual(rel(w.walk({ full: false, racyFromNs: ALL_RACY, dirty: [] }).candidates.paths), ['a.txt', 'd/b.txt', 'e/f.txt', 'new.txt'], 'every file is racy when the threshold is before them all');
  });

  it('a .gitignore added, changed or removed reclassifies what is below it (kept entries are not classified otherwise)', () => {
    t.write('a.txt', 'a');
    t.write('sub/b.txt', 'b');
    t.write('sub/c.log', 'c');
    const w = walker();
    const walk = () => w.walk({ full: false, racyFromNs: NONE_RACY, dirty: [] });
    w.walk({ full: true, racyFromNs: NONE_RACY, dirty: [] });
    t.write('sub/.gitignore', '*.log\n');
    assert.deepEqual(rel(walk().deleted), ['sub/c.log'], 'a new nested .gitignore');
    fs.writeFileSync(t.p('sub/.gitignore'), '*.log\nb.txt\n');
    assert.deepEqual(rel(walk().deleted), ['sub/b.txt'], 'a changed one');
    t.write('.gitignore', 'sub/\n');
    const out = walk();
    assert.deepEqual(rel(out.deleted), ['sub/.gitignore'], 'one at the root leaves the folder out');
    assert.deepEqual(out.excludedDirs, [[t.p('sub'), 'gitignored']]);
    fs.rmSync(t.p('.gitignore'));
    assert.deepEqual(rel(walk().candidates.paths), ['sub/.gitignore'], 'removed: the folder is back, with its own rules');
  });

  it('racy: an unchanged-looking stat is reported when its mtime is not older than the threshold', () => {
    const f = t.write('f.txt', 'aaaa');
    const w = walker();
    w.walk({ full: true, racyFromNs: NONE_RACY, dirty: [] });
    const mtime = fs.lstatSync(f, { bigint: true }).mtimeNs;
    assert.deepEqual(rel(w.walk({ full: false, racyFromNs: mtime, dirty: [] }).candidates.paths), ['f.txt'], 'mtime at the threshold: racy');
    assert.deepEqual(rel(w.walk({ full: false, racyFromNs: mtime + 1n, dirty: [] }).candidates.paths), [], 'older: trusted');
  });

  it('a folder that cannot be listed is reported with its code; .git is never asked about', () => {
    t.write('ok/a.txt', 'a');
    t.write('locked/b.txt', 'b');
    t.write('.git/HEAD', 'ref');
    const asked: string[] = [];
    const io: SyncFs = {
      readdirSync: (p) => {
        asked.push(p);
        if (p === t.p('locked')) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return realSyncFs.readdirSync(p);
      },
      lstatSync: (p) => (asked.push(p), realSyncFs.lstatSync(p)),
      readFileSync: (p) => (asked.push(p), realSyncFs.readFileSync(p)),
    };
    const out = walker(io).walk({ full: true, racyFromNs: NONE_RACY, dirty: [] });
    assert.deepEqual(out.unreadableDirs, [[t.p('locked'), 'EACCES']]);
    assert.deepEqual(rel(out.candidates.paths), ['ok/a.txt']);
    assert.deepEqual(asked.filter((p) => p.includes('.git')), []);
    assert.deepEqual(out.excludedDirs, [[t.p('.git'), 'git-dir']]);
  });

  it('the reader stores verified content, skips what is too large, and keeps to the budget', () => {
    const a = t.write('a.txt', 'alpha');
    const b = t.write('b.txt', 'bravo!');
    const big = t.write('big.bin', Buffer.alloc(100));
    const blobs = path.join(t.store, 'blobs');
    const reader = new SyncReader(blobs);
    const stat = (f: string) => {
      const st = fs.lstatSync(f, { bigint: true });
      return { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) };
    };
    reader.begin({ maxFileBytes: 50, budget: 8, counted: [] });
    const ra = reader.read({ abs: a, stat: stat(a), link: false }, 50);
    assert.deepEqual(ra.record, { kind: 'file', stat: stat(a), hash: sha('alpha') });
    assert.equal(ra.bytesStored, 5);
    assert.equal(fs.readFileSync(path.join(blobs, sha('alpha').slice(0, 2), sha('alpha').slice(2)), 'utf8'), 'alpha');
    assert.equal(reader.read({ abs: a, stat: stat(a), link: false }, 50).bytesStored, 0, 'stored once');
    assert.deepEqual(reader.read({ abs: b, stat: stat(b), link: false }, 50).record, { kind: 'skipped', stat: stat(b), reason: 'over-total' }, '6 bytes do not fit in the 3 left');
    assert.deepEqual(reader.read({ abs: big, stat: stat(big), link: false }, 50).record, { kind: 'skipped', stat: stat(big), reason: 'too-large', detail: '100 bytes' });
    const gone = reader.read({ abs: t.p('missing.txt'), stat: stat(a), link: false }, 50);
    assert.equal(gone.record.kind === 'skipped' && gone.record.detail, 'ENOENT');
  });

  it('a worker script that fails falls back to this thread, says so, and still records everything', async () => {
    const broken = path.join(t.base, 'broken-worker.js');
    fs.writeFileSync(broken, 'throw new Error("no worker today");');
    t.write('a.txt', 'a');
    const lines: string[] = [];
    const snap = t.snapshot({ workerScript: broken, log: (l) => lines.push(l) });
    const m = await snap.refresh();
    assert.equal(snap.engineKind, 'in-process');
    assert.ok(lines.some((l) => l.includes('worker thread failed')), lines.join('\n'));
    assert.deepEqual(m.lookup(t.p('a.txt')), { kind: 'file', hash: sha('a'), size: 1 });
    fs.appendFileSync(t.p('a.txt'), 'b');
    assert.deepEqual((await snap.refresh()).lookup(t.p('a.txt')), { kind: 'file', hash: sha('ab'), size: 2 });
  });

  it('a missing worker script means this thread, said once', async () => {
    t.write('a.txt', 'a');
    const lines: string[] = [];
    const snap = t.snapshot({ workerScript: path.join(t.base, 'nope.js'), log: (l) => lines.push(l) });
    await snap.refresh();
    await snap.refresh();
    assert.equal(snap.engineKind, 'in-process');
    assert.equal(lines.filter((l) => l.includes('no worker script')).length, 1);
  });

  it('after dispose, the next refresh starts a new worker and walks in full', async () => {
    t.write('a.txt', 'a');
    const snap = t.snapshot();
    const m1 = await snap.refresh();
    snap.dispose();
    fs.rmSync(t.p('a.txt'));
    t.write('b.txt', 'b');
    const m2 = await snap.refresh();
    assert.equal(snap.engineKind, 'worker');
    assert.deepEqual(m2.changesSince(m1).map((c) => `${c.change} ${path.basename(c.path)}`).sort(), ['created b.txt', 'deleted a.txt']);
  });
});
