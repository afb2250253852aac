import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar';
import * as vscode from 'vscode';
import { zipBuffer } from '../unit/support/archiveWriters';
import { agentText, alive, EXTENSION_ID, howdah, waitFor } from './helpers';

/**
 * The ACP registry end to end in a real extension host: a registry served from 127.0.0.1 by the test, listing the
 * scripted fake agent packed as a tar.gz, a zip and an npm tarball; installed into Howdah's storage through the
 * installer the Install button uses, started through the normal launcher, prompted; a wrong checksum and a cancelled
 * download leave nothing; an update keeps the running session's version until that session is gone; removal.
 */
describe('registry: install agents from the ACP registry', function () {
  this.timeout(120000);
  let server: http.Server;
  let base = '';
  const files = new Map<string, Buffer>();
  let registry: unknown = { version: '1.0.0', agents: [] };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-registry-'));
  const fakeAgentDir = () => path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'fixtures', 'fake-agent');
  const stalled: http.ServerResponse[] = [];

  /** The fake agent's files plus a launcher that plays `scenario`, as archive entries under `root`. */
  function agentFiles(scenario: string): { name: string; body: Buffer; mode: number }[] {
    const dir = fakeAgentDir();
    const js = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    const launcher = `#!/bin/sh\nhere="$(cd "$(dirname "$0")/.." && pwd)"\nexec "${process.execPath}" "$here/fake-agent/agent.js" "$here/fake-agent/scenarios/${scenario}.json"\n`;
    return [
      ...js.map((f) => ({ name: `fake-agent/${f}`, body: fs.readFileSync(path.join(dir, f)), mode: 0o644 })),
      { name: `fake-agent/scenarios/${scenario}.json`, body: fs.readFileSync(path.join(dir, 'scenarios', `${scenario}.json`)), mode: 0o644 },
      { name: 'bin/fake-acp', body: Buffer.from(launcher), mode: 0o755 },
    ];
  }

  async function tarGzOf(entries: { name: string; body: Buffer; mode: number }[], prefix = ''): Promise<Buffer> {
    const src = fs.mkdtempSync(path.join(work, 'pack-'));
    for (const e of entries) {
      fs.mkdirSync(path.dirname(path.join(src, prefix, e.name)), { recursive: true });
      fs.writeFileSync(path.join(src, prefix, e.name), e.body, { mode: e.mode });
    }
    const out = path.join(src, '..', `${path.basename(src)}.tgz`);
    await tar.c({ gzip: true, cwd: src, file: out, portable: true }, prefix ? [prefix.replace(/\/$/, '')] : entries.map((e) => e.name));
    return fs.readFileSync(out);
  }

  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const entry = (id: string, version: string, distribution: unknown) => ({ id, name: `Registry ${id}`, version, description: `${id} for tests`, license: 'MIT', distribution });
  const binary = (file: string, body: Buffer, checksum = sha(body)) => {
    files.set(`/${file}`, body);
    const target = { archive: `${base}/${file}`, cmd: './bin/fake-acp', sha256: checksum };
    return { binary: Object.fromEntries(['linux-x86_64', 'linux-aarch64', 'darwin-aarch64', 'darwin-x86_64'].map((p) => [p, target])) };
  };

  async function serve(...agents: unknown[]): Promise<void> {
    registry = { version: '1.0.0', agents };
    const api = await howdah();
    const said = await api.refreshRegistry();
    assert.match(said, /^Fetched \d+ agents/, said);
  }

  const installDir = async (id: string, version?: string) => path.join((await howdah()).agentStorage()!, id, ...(version ? [version] : []));
  const listing = async (id: string) => (await (await howdah()).agents()).find((a) => a.id === id);

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/registry.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(registry));
      if (req.url === '/stalls.tar.gz') {
        // Half a download, then nothing until the client gives up: only a cancel ends it.
        res.writeHead(200, { 'content-length': String(1 << 20) });
        res.write(Buffer.alloc(256 << 10));
        stalled.push(res);
        return;
      }
      const body = files.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await vscode.workspace.getConfiguration('howdah').update('registry.url', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
    // The setting's own refresh may be under way; this joins it.
    await (await howdah()).refreshRegistry();
  });

  after(async () => {
    const api = await howdah();
    await api.stopAll();
    for (const id of ['reg-bin', 'reg-npm', 'codex-work']) await api.removeAgent(id).catch(() => undefined);
    await vscode.workspace.getConfiguration('howdah').update('registry.url', '', vscode.ConfigurationTarget.Global);
    for (const res of stalled) res.destroy();
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('a binary agent (tar.gz) installs into global storage, starts through the launcher and answers', async () => {
    await serve(entry('reg-bin', '1.0.0', binary('reg-bin-1.0.0.tar.gz', await tarGzOf(agentFiles('markdown')))));
    const api = await howdah();
    assert.deepEqual(await listing('reg-bin'), { id: 'reg-bin', name: 'Registry reg-bin', source: 'registry', registryVersion: '1.0.0', installed: false });
    const result = await api.installAgent('reg-bin');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.dir, await installDir('reg-bin', '1.0.0'));
    assert.ok(result.executable.startsWith(result.dir + path.sep));
    assert.equal((await listing('reg-bin'))?.installedVersion, '1.0.0');
    const key = await api.newSession('reg-bin');
    assert.equal(api.sessionAgentVersion(key), '1.0.0');
    assert.equal(await api.prompt(key, 'Show me an example'), 'end_turn');
    assert.ok(agentText(api.snapshot(key)).startsWith('# Greeting helper'), agentText(api.snapshot(key)));
    await api.close(key);
  });

  it('an update (1.0.0 → 1.1.0, a zip) leaves the running 1.0.0 session alone; 1.0.0 goes when that session does', async () => {
    const api = await howdah();
    const old = await api.newSession('reg-bin');
    const oldPid = api.agentPid(old)!;
    const zip = zipBuffer(agentFiles('usage').map((f) => ({ name: f.name, body: f.body, mode: 0o100000 | f.mode })));
    await serve(entry('reg-bin', '1.1.0', binary('reg-bin-1.1.0.zip', zip)));
    assert.equal((await listing('reg-bin'))?.update, '1.1.0');
    const result = await api.installAgent('reg-bin');
    assert.ok(result.ok && result.version === '1.1.0', JSON.stringify(result));
    assert.ok(fs.existsSync(await installDir('reg-bin', '1.0.0')), 'the running session still has its version');
    assert.ok(alive(oldPid));
    assert.equal(await api.prompt(old, 'Show me an example'), 'end_turn');
    assert.ok(agentText(api.snapshot(old)).startsWith('# Greeting helper'), 'the old session still runs 1.0.0');
    const next = await api.newSession('reg-bin');
    assert.equal(api.sessionAgentVersion(next), '1.1.0');
    await api.prompt(next, 'How much?');
    assert.equal(agentText(api.snapshot(next)), 'Counting tokens for you.');
    await api.close(old);
    await waitFor('1.0.0 removed once no session uses it', async () => !fs.existsSync(await installDir('reg-bin', '1.0.0')));
    assert.deepEqual(fs.readdirSync(await installDir('reg-bin')), ['1.1.0']);
    await api.close(next);
  });

  it('a download whose checksum does not match is refused and nothing is left on disk', async () => {
    const archive = await tarGzOf(agentFiles('markdown'));
    await serve(entry('reg-bad', '1.0.0', binary('reg-bad.tar.gz', archive, 'f'.repeat(64))));
    const result = await (await howdah()).installAgent('reg-bad');
    assert.ok(!result.ok);
    assert.equal(result.failure, 'checksum');
    assert.match(result.message, /does not match the registry's checksum/);
    assert.equal(fs.existsSync(await installDir('reg-bad')), false);
  });

  it('a download cancelled midway leaves nothing on disk', async () => {
    const target = { archive: `${base}/stalls.tar.gz`, cmd: './bin/fake-acp' };
    await serve(entry('reg-slow', '1.0.0', { binary: { 'linux-x86_64': target, 'linux-aarch64': target, 'darwin-aarch64': target, 'darwin-x86_64': target } }));
    const result = await (await howdah()).installAgent('reg-slow', { cancelAfterBytes: 64 << 10 });
    assert.ok(!result.ok);
    assert.equal(result.failure, 'cancelled');
    assert.equal(fs.existsSync(await installDir('reg-slow')), false);
  });

  it('an npx agent installs from an npm tarball into its own folder and starts without npx', async () => {
    const pkg = { name: 'howdah-fake-acp', version: '1.0.0', bin: { 'howdah-fake-acp': 'fake-agent/agent.js' } };
    const entries = [...agentFiles('markdown').filter((f) => f.name.startsWith('fake-agent/')), { name: 'package.json', body: Buffer.from(JSON.stringify(pkg)), mode: 0o644 }];
    files.set('/howdah-fake-acp-1.0.0.tgz', await tarGzOf(entries, 'package/'));
    await serve(entry('reg-npm', '1.0.0', { npx: { package: `${base}/howdah-fake-acp-1.0.0.tgz`, args: ['markdown'] } }));
    const api = await howdah();
    const result = await api.installAgent('reg-npm');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.executable, path.join(await installDir('reg-npm', '1.0.0'), 'node_modules', '.bin', 'howdah-fake-acp'));
    const key = await api.newSession('reg-npm');
    await api.prompt(key, 'Show me an example');
    assert.ok(agentText(api.snapshot(key)).startsWith('# Greeting helper'));
    await api.close(key);
  });

  it('Add Account gives Codex a second entry whose CODEX_HOME is its own folder in global storage', async () => {
    const api = await howdah();
    const account = await api.addAccount('codex', 'Work');
    assert.equal(account.id, 'codex-work');
    assert.equal(account.name, 'Codex (Work)');
    assert.equal(account.env.CODEX_HOME, account.folder);
    assert.ok(fs.statSync(account.folder).isDirectory());
    assert.ok(account.folder.includes(`${path.sep}globalStorage${path.sep}`), account.folder);
    const ids = (await api.agents()).map((a) => a.id);
    assert.equal(ids.indexOf('codex-work'), ids.indexOf('codex') + 1, 'listed right after Codex');
    await api.removeAgent('codex-work');
    assert.equal(fs.existsSync(account.folder), false, 'removing the account deletes its folder');
    assert.ok(!(await api.agents()).some((a) => a.id === 'codex-work'));
  });

  it('an install the registry no longer lists still starts; Remove deletes its folder, and listed again it is not installed', async () => {
    const api = await howdah();
    const npmEntry = (registry as { agents: unknown[] }).agents[0];
    await serve();
    assert.equal((await listing('reg-npm'))?.installedVersion, '1.0.0');
    const key = await api.newSession('reg-npm');
    await api.close(key);
    await api.removeAgent('reg-npm');
    assert.equal(fs.existsSync(await installDir('reg-npm')), false);
    assert.equal(await listing('reg-npm'), undefined);
    await serve(npmEntry);
    assert.equal((await listing('reg-npm'))?.installed, false);
  });
});
