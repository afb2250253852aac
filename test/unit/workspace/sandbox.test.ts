import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RpcError } from '../../../src/acp/errors';
import { readInside, writeInsideAtomic } from '../../../src/workspace/safeFs';
import { Sandbox } from '../../../src/workspace/sandbox';
import { escapeFixture } from '../support/sandboxEscapes';

/** Every file under `dir` with its content, to prove nothing outside the root was created or changed. */
function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
      else out[path.relative(dir, p)] = `<${e.isSymbolicLink() ? 'link' : 'other'}>`;
    }
  };
  walk(dir);
  return out;
}

describe('workspace sandbox', () => {
  const { base, root, outside, escapes } = escapeFixture('howdah-sandbox-');
  const sandbox = new Sandbox([root]);
  const outsideBefore = snapshotTree(outside);

  const refusal = async (promise: Promise<unknown>): Promise<RpcError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof RpcError && error.code === -32602, `expected a -32602 refusal, got ${String(error)}`);
    assert.match(error.message, /^Refused (path|working directory) /);
    return error;
  };

  /** A write attempt end to end: resolve, then the atomic write the edits layer does. Must be refused. */
  const attemptWrite = (p: unknown) => refusal((async () => writeInsideAtomic(sandbox, await sandbox.resolve(p, 'write'), Buffer.from('pwned')))());
  const attemptRead = (p: unknown) => refusal((async () => readInside(sandbox, await sandbox.resolve(p, 'read'), 1 << 20))());

  it('allows paths inside the root, and links that stay inside', async () => {
    assert.equal(await sandbox.resolve(path.join(root, 'src', 'a.ts'), 'read'), path.join(root, 'src', 'a.ts'));
    assert.equal(await sandbox.resolve(path.join(root, 'link-in'), 'read'), path.join(root, 'src', 'a.ts'));
    assert.equal(await sandbox.resolve(path.join(root, 'src', '.', 'x', '..', 'a.ts'), 'read'), path.join(root, 'src', 'a.ts'));
    assert.equal(await sandbox.resolve(path.join(root, 'new', 'deep', 'file.ts'), 'write'), path.join(root, 'new', 'deep', 'file.ts'));
    assert.equal(await sandbox.resolve(root, 'cwd'), root);
  });


  for (const [what, p] of escapes) {
    it(`refuses a write: ${what}`, async () => {
      await attemptWrite(p);
    });
    it(`refuses a read: ${what}`, async () => {
      await attemptRead(p);
    });
  }

  it('wrote nothing outside the root through any of them', () => {
    assert.deepEqual(snapshotTree(outside), outsideBefore);
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret');
    assert.deepEqual(fs.readdirSync(path.join(base, 'ws-sibling')), []);
  });

  it('names the path and the reason', async () => {
    const error = await refusal(sandbox.resolve(path.join(root, 'link-out'), 'read'));
    assert.ok(error.message.includes(path.join(root, 'link-out')));
    assert.match(error.message, /outside the workspace/);
    assert.deepEqual(Object.keys(error.data as object).sort(), ['path', 'reason']);
  });

  it('refuses a working directory that is a file, missing, or outside', async () => {
    await refusal(sandbox.resolve(path.join(root, 'src', 'a.ts'), 'cwd'));
    await refusal(sandbox.resolve(path.join(root, 'nope'), 'cwd'));
    await refusal(sandbox.resolve(path.join(root, 'dir-out'), 'cwd'));
  });

  it('a file swapped for a link between check and read is refused', async () => {
    const target = path.join(root, 'swap-file.txt');
    const real = await sandbox.resolve(target, 'read');
    fs.rmSync(target);
    fs.symlinkSync(path.join(outside, 'secret.txt'), target);
    try {
      await refusal(readInside(sandbox, real, 1 << 20));
    } finally {
      fs.rmSync(target);
      fs.writeFileSync(target, 'inside');
    }
  });

  it('a folder swapped for a link between check and write is refused, and nothing lands outside', async () => {
    const dir = path.join(root, 'swap-dir');
    const real = await sandbox.resolve(path.join(dir, 'new.txt'), 'write');
    fs.rmdirSync(dir);
    fs.symlinkSync(outside, dir);
    try {
      await refusal(writeInsideAtomic(sandbox, real, Buffer.from('pwned')));
      assert.deepEqual(snapshotTree(outside), outsideBefore);
    } finally {
      fs.rmSync(dir);
      fs.mkdirSync(dir);
    }
  });

  it('a folder swapped for a link between check and read is refused', async () => {
    fs.mkdirSync(path.join(root, 'swap-read'));
    fs.writeFileSync(path.join(root, 'swap-read', 'secret.txt'), 'inside');
    const real = await sandbox.resolve(path.join(root, 'swap-read', 'secret.txt'), 'read');
    fs.rmSync(path.join(root, 'swap-read'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'swap-read'));
    await refusal(readInside(sandbox, real, 1 << 20));
  });

  it('a write target swapped for a link is replaced, never written through', async () => {
    const target = path.join(root, 'replace-me.txt');
    fs.writeFileSync(target, 'old');
    const real = await sandbox.resolve(target, 'write');
    fs.rmSync(target);
    fs.symlinkSync(path.join(outside, 'secret.txt'), target);
    await writeInsideAtomic(sandbox, real, Buffer.from('new'));
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret');
    assert.ok(!fs.lstatSync(target).isSymbolicLink());
    assert.equal(fs.readFileSync(target, 'utf8'), 'new');
  });

  it('refuses to read a FIFO (it would block) and other special files', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await refusal(readInside(sandbox, await sandbox.resolve(fifo, 'read'), 1 << 20));
  });

  it('writes atomically, creating folders, keeping an existing file mode', async () => {
    const file = path.join(root, 'made', 'here', 'x.sh');
    await writeInsideAtomic(sandbox, await sandbox.resolve(file, 'write'), Buffer.from('one'));
    fs.chmodSync(file, 0o750);
    await writeInsideAtomic(sandbox, await sandbox.resolve(file, 'write'), Buffer.from('two'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'two');
    assert.equal(fs.statSync(file).mode & 0o777, 0o750);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['x.sh'], 'no temporary file is left behind');
  });

  it('reads return -32002 for a missing file', async () => {
    const error = await readInside(sandbox, path.join(root, 'missing.txt'), 100).catch((e: unknown) => e);
    assert.ok(error instanceof RpcError && error.code === -32002);
  });

  it('roots added later count, and folders compare by whole components', async () => {
    const extra = new Sandbox([root]);
    await refusal(extra.resolve(path.join(base, 'ws-sibling', 'x'), 'write'));
    extra.addRoot(path.join(base, 'ws-sibling'));
    assert.equal(await extra.resolve(path.join(base, 'ws-sibling', 'x'), 'write'), path.join(base, 'ws-sibling', 'x'));
    assert.equal(extra.contains('/a/b', '/a/bc'), false);
    assert.equal(extra.contains('/a/b', '/a/b/c'), true);
  });

  it('spells a real path under the root as it was given (a workspace opened through a link)', async () => {
    const linked = path.join(base, 'ws-link');
    fs.symlinkSync(root, linked);
    const through = new Sandbox([linked]);
    const real = await through.resolve(path.join(linked, 'src', 'a.ts'), 'read');
    assert.equal(real, path.join(root, 'src', 'a.ts'));
    assert.equal(await through.viewPath(real), path.join(linked, 'src', 'a.ts'));
    assert.equal(await through.viewPath(await through.resolve(path.join(linked, 'link-in'), 'read')), path.join(linked, 'src', 'a.ts'));
    await writeInsideAtomic(through, await through.resolve(path.join(linked, 'via-link.txt'), 'write'), Buffer.from('ok'));
    assert.equal(fs.readFileSync(path.join(root, 'via-link.txt'), 'utf8'), 'ok');
  });

  it('a case-insensitive sandbox folds case but still refuses escapes', async () => {
    const folding = new Sandbox([root], { caseInsensitive: true });
    assert.equal(folding.checkLexical(root.toUpperCase() + '/SRC/A.TS'), path.resolve(root.toUpperCase() + '/SRC/A.TS'));
    await refusal(folding.resolve(root.toUpperCase() + '/../OUTSIDE/secret.txt', 'read'));
    await refusal(folding.resolve(path.join(root, 'dir-out', 'secret.txt'), 'read'));
  });

  describe('Windows path rules (lexical)', () => {
    const win = new Sandbox(['C:\\ws'], { platform: 'win32' });
    const refusedLexically = (p: string) => assert.throws(() => win.checkLexical(p), (e: unknown) => e instanceof RpcError && e.code === -32602, p);
    for (const p of [
      'C:\\ws\\..\\Windows\\system.ini',
      'D:\\ws\\x',
      'C:\\ws\\file.txt:secret',
      'C:\\ws\\con',
      'C:\\ws\\NUL.txt',
      'C:\\ws\\x.',
      'C:\\ws\\x ',
      '\\\\?\\C:\\ws\\x',
      '\\\\.\\C:\\ws\\x',
      '\\\\server\\share\\x',
      'ws\\x',
      'C:ws\\x',
      'C:\\ws\\a<b',
    ]) {
      it(`refuses ${p}`, () => refusedLexically(p));
    }
    it('allows paths inside, case-insensitively, with either slash', () => {
      assert.equal(win.checkLexical('C:\\ws\\src\\a.ts'), 'C:\\ws\\src\\a.ts');
      assert.equal(win.checkLexical('c:\\WS\\src/a.ts'), 'c:\\WS\\src\\a.ts');
    });
  });
});
