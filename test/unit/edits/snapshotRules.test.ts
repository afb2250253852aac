import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../src/edits/snapshot';
import { globMatcher } from '../../../src/edits/snapshot/rules';
import { ENGINES, FsSpy, TempTree } from './snapshotSupport';

for (const engine of ENGINES) describe(`turn snapshot: what is left out (${engine.name})`, () => {
  let t: TempTree;
  beforeEach(() => (t = new TempTree(engine)));

  /** Refreshes, returning the manifest and every path the file system was asked about, on this thread or the worker. */
  async function touching(options: Parameters<TempTree['snapshot']>[0] = {}) {
    const spy = new FsSpy();
    try {
      const snap = t.snapshot({ traceFs: true, ...options });
      const m = await snap.refresh();
      assert.equal(snap.engineKind, engine.name);
      return { m, paths: [...spy.paths, ...snap.touched] };
    } finally {
      spy.restore();
    }
  }
  const under = (paths: string[], dir: string) => paths.filter((p) => p === dir || p.startsWith(dir + path.sep));
  afterEach(() => t.dispose());

  it('never lists, stats or reads anything inside .git, nor the .git entry itself', async () => {
    t.write('src/a.ts', 'a');
    t.write('.git/config', '[core]');
    t.write('.git/objects/ab/cdef', 'blob');
    t.write('vendor/lib/.git', 'gitdir: ../../.git/modules/lib'); // a submodule's .git file
    t.write('vendor/lib/x.ts', 'x');
    const { m, paths } = await touching({ exclude: [] });
    assert.ok(under(paths, t.p('src')).length > 0, 'the trace sees the walk');
    assert.deepEqual(under(paths, t.p('.git')), []);
    assert.deepEqual(under(paths, t.p('vendor/lib/.git')), []);
    assert.deepEqual([...m.paths()].map((p) => path.relative(t.root, p)).sort(), ['src/a.ts', 'vendor/lib/x.ts']);
    assert.deepEqual(m.lookup(t.p('.git/config')), { kind: 'excluded', reason: 'git-dir' });
    assert.deepEqual(m.lookup(t.p('.git/HEAD')), { kind: 'excluded', reason: 'git-dir' });
    assert.deepEqual(m.lookup(t.p('vendor/lib/.git')), { kind: 'excluded', reason: 'git-dir' });
    if (process.getuid?.() !== 0) {
      // Where permissions bite (not as root): a .git we may not even list makes no error.
      fs.chmodSync(t.p('.git'), 0o000);
      try {
        const lines: string[] = [];
        await t.snapshot({ log: (l) => lines.push(l) }).refresh();
        assert.deepEqual(lines, []);
      } finally {
        fs.chmodSync(t.p('.git'), 0o755);
      }
    }
  });

  it('does not descend into an excluded folder: nothing under node_modules is touched', async () => {
    t.write('index.js', 'x');
    for (let i = 0; i < 20; i++) t.write(`node_modules/pkg${i}/index.js`, 'module');
    t.write('packages/a/node_modules/dep/x.js', 'nested');
    const { m, paths } = await touching();
    assert.ok(paths.includes(t.p('index.js')), 'the trace sees the walk');
    assert.deepEqual(paths.filter((p) => p.includes(`node_modules${path.sep}`)), []);
    assert.deepEqual([...m.paths()], [t.p('index.js')]);
    assert.deepEqual(m.lookup(t.p('node_modules/pkg1/index.js')), { kind: 'excluded', reason: 'excluded' });
    assert.deepEqual(m.lookup(t.p('packages/a/node_modules/new/y.js')), { kind: 'excluded', reason: 'excluded' });
    assert.deepEqual(m.lookup(t.p('node_modules')), { kind: 'excluded', reason: 'excluded' });
  });

  it('globs: files and folders, matched relative to the root, dot files included', async () => {
    t.write('app.log', 'log');
    t.write('deep/er/trace.log', 'log');
    t.write('.cache/x', 'x');
    t.write('keep/a.txt', 'a');
    t.write('gen/out.ts', 'generated');
    const m = await t.snapshot({ exclude: ['**/*.log', '**/.cache/**', 'gen'] }).refresh();
    assert.deepEqual([...m.paths()].map((p) => path.relative(t.root, p)), ['keep/a.txt']);
    assert.deepEqual(m.lookup(t.p('deep/er/trace.log')), { kind: 'excluded', reason: 'excluded' });
    assert.deepEqual(m.lookup(t.p('deep/never-seen.log')), { kind: 'excluded', reason: 'excluded' }, 'by the rules, even when absent');
    assert.deepEqual(m.lookup(t.p('gen/new.ts')), { kind: 'excluded', reason: 'excluded' });
    assert.deepEqual(m.lookup(t.p('keep/b.txt')), { kind: 'absent' });
  });

  it('.gitignore at the root and nested, with negation and folder-only patterns', async () => {
    t.write('.gitignore', 'build/\n*.tmp\n/secret.txt\n*.txt\n!keep.txt\n');
    t.write('build/out.js', 'built');
    t.write('a.tmp', 'tmp');
    t.write('notes.txt', 'ignored by *.txt');
    t.write('keep.txt', 'kept by !keep.txt');
    t.write('src/main.ts', 'main');
    t.write('src/build', 'a file named build: build/ only means folders');
    t.write('src/.gitignore', '!*.tmp\nlocal/\n');
    t.write('src/x.tmp', 'kept: the nested file re-includes it');
    t.write('src/local/y.ts', 'ignored by the nested file');
    t.write('other/z.tmp', 'ignored by the root file');
    t.write('other/keep.txt', 'kept');
    const m = await t.snapshot().refresh();
    const rel = [...m.paths()].map((p) => path.relative(t.root, p)).sort();
    assert.deepEqual(rel, ['.gitignore', 'keep.txt', 'other/keep.txt', 'src/.gitignore', 'src/build', 'src/main.ts', 'src/x.tmp']);
    assert.deepEqual(m.lookup(t.p('build/out.js')), { kind: 'excluded', reason: 'gitignored' });
    assert.deepEqual(m.lookup(t.p('src/local/new.ts')), { kind: 'excluded', reason: 'gitignored' });
    assert.deepEqual(m.lookup(t.p('notes.txt')), { kind: 'excluded', reason: 'gitignored' });
    assert.deepEqual(m.lookup(t.p('src/new.tmp')), { kind: 'absent' });
    const all = await t.snapshot({ respectGitignore: false, storeDir: path.join(t.base, 'store2') }).refresh();
    assert.equal(all.size, 12);
  });

  it('a changed .gitignore applies at the next refresh', async () => {
    t.write('.gitignore', '*.log\n');
    t.write('a.log', 'a');
    const snap = t.snapshot();
    assert.equal((await snap.refresh()).lookup(t.p('a.log')).kind, 'excluded');
    fs.writeFileSync(t.p('.gitignore'), '# nothing\n');
    assert.equal((await snap.refresh()).lookup(t.p('a.log')).kind, 'file');
  });

  it('leaves out the store when it is inside a root', async () => {
    t.write('a.txt', 'a');
    const store = t.p('.howdah-store');
    const snap = t.snapshot({ storeDir: store, exclude: [] });
    await snap.refresh();
    fs.appendFileSync(t.p('a.txt'), 'b');
    const m = await snap.refresh();
    assert.deepEqual([...m.paths()], [t.p('a.txt')]);
    assert.deepEqual(m.lookup(path.join(store, 'stat-cache.bin')), { kind: 'excluded', reason: 'excluded' });
  });

  it('lookup: outside, absent, a root itself, nested roots', async () => {
    t.write('a.txt', 'a');
    t.write('inner/b.txt', 'b');
    const snap = t.snapshot({ roots: [t.root, t.p('inner')] });
    const m = await snap.refresh();
    assert.deepEqual(m.lookup(path.join(t.base, 'elsewhere.txt')), { kind: 'outside' });
    assert.deepEqual(m.lookup(t.root + '-sibling/a.txt'), { kind: 'outside' }, 'a prefix of the name is not inside');
    assert.deepEqual(m.lookup(t.p('missing/dir/c.txt')), { kind: 'absent' });
    assert.equal(m.lookup(t.p('inner/b.txt')).kind, 'file');
    assert.equal(snap.stats().filesSeen, 2, 'a nested root is walked once');
    assert.equal(m.rootOf(t.p('inner/b.txt')), t.p('inner'));
  });

  it('the glob fast path agrees with picomatch', () => {
    const globs = [...DEFAULT_SNAPSHOT_EXCLUDES, '**/*.log', 'dist', 'src/**/gen/*.ts', '**/.DS_Store'];
    const match = globMatcher(globs);
    const yes = ['node_modules', 'a/node_modules', 'x/.venv', 'x.log', 'a/b.log', 'dist', 'src/a/gen/x.ts', 'src/gen/x.ts', 'q/.DS_Store'];
    const no = ['my_node_modules', 'node_modules_x', 'a/dist', 'src/gen.ts', 'a/b.ts', 'logs', '.gitignore'];
    for (const p of yes) assert.ok(match(p, p.split('/').pop()!), p);
    for (const p of no) assert.ok(!match(p, p.split('/').pop()!), p);
  });
});
