import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RpcError } from '../../../src/acp/errors';
import { Sandbox } from '../../../src/workspace/sandbox';

describe('workspace sandbox', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-sandbox-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-out'));
  fs.symlinkSync(outside, path.join(root, 'dir-out'));
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'dangling-out'));
  fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'link-in'));
  const sandbox = new Sandbox([root]);

  const refused = async (p: unknown, purpose: 'read' | 'write' = 'read') => {
    const error = await sandbox.resolve(p, purpose).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof RpcError && error.code === -32602, `${String(p)} should be refused, got ${String(error)}`);
    assert.ok(error.message.includes('Refused'));
  };

  it('allows paths inside the root, and links that stay inside', async () => {
    assert.equal(await sandbox.resolve(path.join(root, 'src', 'a.ts'), 'read'), path.join(root, 'src', 'a.ts'));
    assert.equal(await sandbox.resolve(path.join(root, 'link-in'), 'read'), path.join(root, 'src', 'a.ts'));
    assert.equal(await sandbox.resolve(path.join(root, 'new', 'deep', 'file.ts'), 'write'), path.join(root, 'new', 'deep', 'file.ts'));
  });

  it('refuses escapes: .., links out, dangling links out, relative, ~, NUL, prefixes, Windows forms', async () => {
    for (const p of [
      path.join(root, '..', 'outside', 'secret.txt'),
      path.join(root, 'src', '..', '..', 'outside'),
      path.join(root, 'link-out'),
      path.join(root, 'dir-out', 'secret.txt'),
      path.join(root, 'dir-out', 'new.txt'),
      path.join(root, 'dangling-out'),
      'src/a.ts',
      '~/.ssh/id_rsa',
      path.join(root, 'a\0b'),
      root + '-sibling/x',
      '/etc/passwd',
      'C:\\Windows\\system32',
      '\\\\server\\share\\x',
      '',
      42,
    ]) {
      await refused(p, 'write');
    }
  });
});
