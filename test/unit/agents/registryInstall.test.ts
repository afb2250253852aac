import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { archiveKind, extractArchive, prepareCommand } from '../../../src/agents/registry/archive';
import { safeEntryPath, UnsafeArchiveError } from '../../../src/agents/registry/archivePaths';
import { download } from '../../../src/agents/registry/download';
import { AgentInstaller } from '../../../src/agents/registry/installer';
import { InstallError } from '../../../src/agents/registry/installErrors';
import { parseAgent } from '../../../src/agents/registry/registryFormat';
import { tarBuffer, tarGz, zipBuffer, type TarItem, type ZipItem } from '../support/archiveWriters';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-install-'));
/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function unpack(kind: 'tar.gz' | 'zip', archive: Buffer): Promise<{ dest: string; outside: string; error?: unknown }> {
  const base = tmp();
  const file = path.join(base, `a.${kind}`);
  fs.writeFileSync(file, archive);
  const dest = path.join(base, 'deep', 'dest');
  try {
    await extractArchive(file, kind, dest, 'x');
    return { dest, outside: base };
  } catch (error) {
    return { dest, outside: base, error };
  }
}

describe('archive extraction', () => {
  it('unpacks a tar.gz, a tar.bz2 and a zip, keeping folders, modes and links inside', async () => {
    const t = await unpack('tar.gz', tarGz([{ name: 'bin/', type: '5' }, { name: 'bin/agent', body: '#!/bin/sh\n', mode: 0o755 }, { name: 'agent-link', type: '2', linkname: 'bin/agent' }]));
    assert.equal(t.error, undefined);
    assert.deepEqual(tree(t.dest), ['agent-link', 'bin', 'bin/agent']);
    assert.equal(fs.statSync(path.join(t.dest, 'bin/agent')).mode & 0o111, 0o111);
    const z = await unpack('zip', zipBuffer([{ name: 'dir/' , mode: 0o040755 }, { name: 'dir/agent', body: 'hi', mode: 0o100755 }]));
    assert.equal(z.error, undefined);
    assert.equal(fs.readFileSync(path.join(z.dest, 'dir/agent'), 'utf8'), 'hi');

    const base = tmp();
    const tarFile = path.join(base, 'a.tar');
    fs.writeFileSync(tarFile, tarBuffer([{ name: 'agent', body: 'bz' }]));
    execFileSync('bzip2', ['-z', tarFile]);
    await extractArchive(`${tarFile}.bz2`, 'tar.bz2', path.join(base, 'out'), 'x');
    assert.equal(fs.readFileSync(path.join(base, 'out', 'agent'), 'utf8'), 'bz');
  });

  // Every form an entry can take to land outside the folder: each must be refused with nothing written anywhere.
  const tarEscapes: [string, TarItem[]][] = [
    ['a ../ name', [{ name: '../evil', body: 'x' }]],
    ['a ../ deeper in the name', [{ name: 'ok/../../evil', body: 'x' }]],
    ['an absolute path', [{ name: '/tmp/howdah-evil', body: 'x' }]],
    ['a drive letter', [{ name: 'C:/evil', body: 'x' }]],
    ['backslashes climbing out', [{ name: '..\\..\\evil', body: 'x' }]],
    ['a symbolic link to an absolute path', [{ name: 'link', type: '2', linkname: '/etc' }]],
    ['a symbolic link climbing out', [{ name: 'sub/link', type: '2', linkname: '../../outside' }]],
    ['a hard link to a file outside', [{ name: 'hard', type: '1', linkname: '../outside' }]],
    ['a hard link to an absolute path', [{ name: 'hard', type: '1', linkname: '/etc/passwd' }]],
    ['a pax long name climbing out', [{ name: `${'a/'.repeat(60)}${'../'.repeat(70)}evil`, body: 'x', longName: 'pax' }]],
    ['a GNU long name climbing out', [{ name: `${'b/'.repeat(60)}${'../'.repeat(70)}evil`, body: 'x', longName: 'gnu' }]],
    ['a pax link target climbing out', [{ name: 'link', type: '2', linkname: `${'../'.repeat(40)}etc`, longName: 'pax' }]],
    ['a name part longer than file systems take', [{ name: `${'n'.repeat(300)}`, body: 'x', longName: 'pax' }]],
    ['a character device', [{ name: 'tty', type: '3' }]],
    ['a good file first, then a bad one', [{ name: 'good', body: 'x' }, { name: '../evil', body: 'x' }]],
  ];
  for (const [what, items] of tarEscapes) {
    it(`refuses a tar with ${what}, writing nothing`, async () => {
      const r = await unpack('tar.gz', tarGz(items));
      assert.ok(r.error instanceof UnsafeArchiveError, `expected a refusal, got ${String(r.error)}`);
      assert.deepEqual(tree(r.dest), []);
      assert.deepEqual(tree(r.outside), ['a.tar.gz', 'deep', 'deep/dest']);
    });
  }

  const zipEscapes: [string, ZipItem[]][] = [
    ['a ../ name', [{ name: '../evil', body: 'x' }]],
    ['an absolute path', [{ name: '/tmp/howdah-evil', body: 'x' }]],
    ['a drive letter with backslashes', [{ name: 'C:\\evil', body: 'x' }]],
    ['backslashes climbing out', [{ name: 'a\\..\\..\\evil', body: 'x' }]],
    ['a symbolic link out', [{ name: 'link', body: '/etc', mode: 0o120777 }]],
    ['a symbolic link climbing out', [{ name: 'd/link', body: '../../x', mode: 0o120777 }]],
    ['a NUL byte in a name', [{ name: 'ok\0/../../evil', body: 'x' }]],
    ['a good file first, then a bad one', [{ name: 'good', body: 'x' }, { name: '../evil', body: 'x' }]],
  ];
  for (const [what, items] of zipEscapes) {
    it(`refuses a zip with ${what}, writing nothing`, async () => {
      const r = await unpack('zip', zipBuffer(items));
      assert.ok(r.error instanceof UnsafeArchiveError, `expected a refusal, got ${String(r.error)}`);
      assert.deepEqual(tree(r.dest), []);
      assert.deepEqual(tree(r.outside), ['a.zip', 'deep', 'deep/dest']);
    });
  }

  it('normalises safe names and refuses unsafe ones', () => {
    assert.equal(safeEntryPath('./a/./b/../c'), 'a/c');
    assert.equal(safeEntryPath('a\\b'), 'a/b');
    for (const bad of ['..', '/x', '\\\\server\\share', 'D:x', 'a/../../b', 'x\0y']) assert.throws(() => safeEntryPath(bad), UnsafeArchiveError, bad);
  });

  it('refuses a command that is missing, outside, or a link out', async () => {
    const dest = tmp();
    fs.writeFileSync(path.join(dest, 'agent'), '#!/bin/sh\n');
    fs.symlinkSync('/bin/sh', path.join(dest, 'sh'));
    assert.equal(await prepareCommand(dest, './agent'), 'agent');
    assert.equal(fs.statSync(path.join(dest, 'agent')).mode & 0o755, 0o755);
    await assert.rejects(prepareCommand(dest, './missing'), /does not contain the agent's command/);
    await assert.rejects(prepareCommand(dest, '../agent'), UnsafeArchiveError);
    await assert.rejects(prepareCommand(dest, './sh'), UnsafeArchiveError);
  });

  it('tells archives from bare executables by the URL', () => {
    assert.equal(archiveKind('https://x/a/agent.tar.gz?x=1'), 'tar.gz');
    assert.equal(archiveKind('https://x/agent.TGZ'), 'tar.gz');
    assert.equal(archiveKind('https://x/agent.tbz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/agent.tar.bz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/agent.zip'), 'zip');
    assert.equal(archiveKind('https://x/agent-linux-x64'), 'raw');
  });
});

describe('installing a binary agent', () => {
  let server: http.Server;
  let base: string;
  const files = new Map<string, Buffer>();
  before(async () => {
    server = http.createServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const registryAgent = (archive: string, sha256?: string) =>
    parseAgent({ id: 'demo', name: 'Demo', version: '1.0.0', description: 'd', distribution: { binary: { 'linux-x86_64': { archive, cmd: './bin/demo', args: ['acp'], ...(sha256 ? { sha256 } : {}) } } } }).agent!;
  const signal = () => new AbortController().signal;

  it('installs into <root>/<id>/<version> with a manifest, the command executable', async () => {
    const archive = tarGz([{ name: 'bin/demo', body: '#!/bin/sh\necho hi\n' }]);
    files.set('/demo.tar.gz', archive);
    const root = tmp();
    const installer = new AgentInstaller(root);
    const sha = createHash('sha256').update(archive).digest('hex');
    const steps: string[] = [];
    const installed = await installer.install(registryAgent(`${base}/demo.tar.gz`, sha), { platform: 'linux-x86_64', signal: signal(), onStep: (s) => steps.push(s.message) });
    assert.equal(installed.dir, path.join(root, 'demo', '1.0.0'));
    assert.equal(installed.executable, path.join(root, 'demo', '1.0.0', 'files', 'bin', 'demo'));
    assert.deepEqual(installed.args, ['acp']);
    assert.equal(execFileSync(installed.executable, { encoding: 'utf8' }), 'hi\n');
    assert.deepEqual(fs.readdirSync(path.join(root, 'demo')), ['1.0.0']);
    assert.ok(steps.includes('Unpacking Demo'));
    assert.deepEqual([...(await installer.list()).keys()], ['demo']);
    await installer.remove('demo');
    assert.deepEqual(fs.readdirSync(root), []);
  });

  it('refuses a download whose checksum does not match, leaving nothing on disk', async () => {
    files.set('/bad.tar.gz', tarGz([{ name: 'bin/demo', body: 'x' }]));
    const root = tmp();
    const error = await new AgentInstaller(root).install(registryAgent(`${base}/bad.tar.gz`, 'f'.repeat(64)), { platform: 'linux-x86_64', signal: signal() }).catch((e: unknown) => e);
    assert.ok(error instanceof InstallError);
    assert.equal(error.failure, 'checksum');
    assert.match(error.message, /does not match the registry's checksum/);
    assert.deepEqual(tree(root), []);
  });

  it('names the cause: a missing file on the server, a platform without a build, an unsafe archive', async () => {
    const root = tmp();
    const installer = new AgentInstaller(root);
    const missing = await installer.install(registryAgent(`${base}/nothing.tar.gz`), { platform: 'linux-x86_64', signal: signal() }).catch((e: unknown) => e);
    assert.ok(missing instanceof InstallError && missing.failure === 'network' && /404/.test(missing.message));
    const platform = await installer.install(registryAgent(`${base}/demo.tar.gz`), { platform: 'windows-aarch64', signal: signal() }).catch((e: unknown) => e);
    assert.ok(platform instanceof InstallError && platform.failure === 'platform' && /not available for windows-aarch64/.test(platform.message));
    files.set('/evil.tar.gz', tarGz([{ name: '../../evil', body: 'x' }]));
    const evil = await installer.install(registryAgent(`${base}/evil.tar.gz`), { platform: 'linux-x86_64', signal: signal() }).catch((e: unknown) => e);
    assert.ok(evil instanceof UnsafeArchiveError);
    assert.deepEqual(tree(root), []);
  });

  it('a cancelled install leaves nothing behind', async () => {
    const controller = new AbortController();
    controller.abort();
    const root = tmp();
    const error = await new AgentInstaller(root).install(registryAgent(`${base}/demo.tar.gz`), { platform: 'linux-x86_64', signal: controller.signal }).catch((e: unknown) => e);
    assert.ok(error instanceof InstallError && error.failure === 'cancelled');
    assert.deepEqual(tree(root), []);
  });

  it('a download with a checksum mismatch deletes its file', async () => {
    const dir = tmp();
    files.set('/blob', Buffer.from('abc'));
    await assert.rejects(download(`${base}/blob`, path.join(dir, 'blob'), { signal: signal(), sha256: '0'.repeat(64) }), /does not match/);
    assert.deepEqual(fs.readdirSync(dir), []);
    const ok = await download(`${base}/blob`, path.join(dir, 'blob'), { signal: signal(), sha256: createHash('sha256').update('abc').digest('hex') });
    assert.equal(ok.bytes, 3);
  });

  it('says exactly how to get uv when an uvx agent is installed without it', async () => {
    const agent = parseAgent({ id: 'py', name: 'Py', version: '0.3.0', description: 'd', distribution: { uvx: { package: 'py-agent==0.3.0', args: ['acp'] } } }).agent!;
    const root = tmp();
    const error = await new AgentInstaller(root).install(agent, { platform: 'linux-x86_64', signal: signal() }).catch((e: unknown) => e);
    assert.ok(error instanceof InstallError && error.failure === 'missing-tool');
    assert.match(error.message, /astral\.sh\/uv\/install\.sh/);
    const withUv = await new AgentInstaller(root).install(agent, { platform: 'linux-x86_64', signal: signal(), uvx: '/usr/bin/uvx' });
    assert.deepEqual([withUv.executable, ...withUv.args], ['uvx', '--from', 'py-agent==0.3.0', 'py-agent', 'acp']);
  });
});
