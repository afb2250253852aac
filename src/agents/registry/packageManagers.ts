import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cancelled, InstallError, NPM_HINT } from './installErrors';
import { splitNpmSpec } from './registryFormat';
import * as l10n from '@vscode/l10n';

/**
 * npm for `npx` agents: `npm install --prefix <dir> --no-save <package@version>` with the user's own npm, so the
 * agent lives in Howdah's storage (never globally) and starts later without npm, npx or the network. The process is
 * stopped (with its children) when the install is cancelled.
 */
export async function npmInstall(npm: string | undefined, dir: string, spec: string, options: { signal: AbortSignal; onLine?: (line: string) => void; env?: NodeJS.ProcessEnv }): Promise<void> {
  if (!npm) throw new InstallError('missing-tool', l10n.t('npm was not found, and this agent is installed with npm. {0}', NPM_HINT));
  await fs.promises.mkdir(dir, { recursive: true });
  // A package.json of its own, so npm installs here and does not climb to a project above the storage folder.
  await fs.promises.writeFile(path.join(dir, 'package.json'), '{ "name": "howdah-agent", "private": true }\n');
  const args = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error', spec];
  const tail: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    // .cmd shims on Windows run only through the shell; elsewhere npm is started directly.
    const child = spawn(npm, args, { cwd: dir, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', shell: process.platform === 'win32' });
    const onAbort = () => killTree(child.pid);
    options.signal.addEventListener('abort', onAbort, { once: true });
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 30) tail.shift();
        options.onLine?.(line);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new InstallError('missing-tool', l10n.t('npm could not be started ({0}). {1}', error.message, NPM_HINT), { cause: error }));
    });
    child.on('close', (exit) => {
      options.signal.removeEventListener('abort', onAbort);
      resolve(exit);
    });
  });
  if (options.signal.aborted) throw cancelled();
  if (code === 0) return;
  const text = tail.join('\n');
  const failure = /ENOSPC/.test(text) ? 'disk' : /ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i.test(text) ? 'network' : 'package-manager';
  const missing = /ETARGET|E404|notarget|404 Not Found/i.test(text);
  const why = failure === 'disk' ? l10n.t('the disk is full') : failure === 'network' ? l10n.t('npm could not reach its registry') : missing ? l10n.t('that package or version is not on the npm registry npm uses') : l10n.t('npm exited with {0}', String(code));
  throw new InstallError(failure, l10n.t('Installing {0} failed: {1}. npm said:\n{2}', spec, why, tail.slice(-8).join('\n')));
}

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * The command an installed npm package runs as, relative to its install folder: `cmd` when the registry names one,
 * else the package's only bin (or the one named after the package).
 */
export async function npmBin(dir: string, spec: string, cmd: string | undefined): Promise<string> {
  const name = await installedName(dir, spec);
  let manifest: { name?: string; bin?: unknown };
  try {
    manifest = JSON.parse(await fs.promises.readFile(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as typeof manifest;
  } catch (error) {
    const found = await fs.promises.readdir(path.join(dir, 'node_modules')).catch(() => []);
    throw new InstallError('package-manager', l10n.t('npm finished, but {0} is not where it installs packages (node_modules holds: {1}).', name, found.join(', ') || l10n.t('nothing')), { cause: error });
  }
  const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop()!]: manifest.bin } : typeof manifest.bin === 'object' && manifest.bin ? (manifest.bin as Record<string, unknown>) : {};
  const names = Object.keys(bins);
  const chosen = cmd ? cmd.replace(/^\.\//, '') : names.length === 1 ? names[0] : names.find((n) => n === name.split('/').pop());
  if (!chosen || !names.includes(chosen)) {
    const has = names.length ? l10n.t('the commands {0}', names.join(', ')) : l10n.t('no command');
    throw new InstallError('package-manager', cmd ? l10n.t('{0} has {1}, not "{2}".', name, has, cmd) : l10n.t('{0} has {1}, and the registry does not say which one runs the agent.', name, has));
  }
  const bin = process.platform === 'win32' ? `${chosen}.cmd` : chosen;
  return path.join('node_modules', '.bin', bin);
}

/**
 * The name the spec installed as: read from the spec for `name@version`; for a tarball URL or path, from npm's own
 * record of what it installed (node_modules/.package-lock.json), the package whose `resolved` is that tarball.
 */
async function installedName(dir: string, spec: string): Promise<string> {
  if (!/^(https?:|file:|\.|\/)|\.tgz$|\.tar\.gz$/i.test(spec)) return splitNpmSpec(spec).name;
  const lock = JSON.parse(await fs.promises.readFile(path.join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages?: Record<string, { resolved?: string }> };
  const base = spec.split(/[\\/]/).pop();
  for (const [key, value] of Object.entries(lock.packages ?? {})) {
    const resolved = value.resolved ?? '';
    // Keys are relative to the folder npm saw, which differs from ours when a link is on the way: the name is what
    // follows the last node_modules/.
    if (resolved === spec || (base && resolved.endsWith(`/${base}`))) return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
  }
  throw new InstallError('package-manager', l10n.t('npm installed {0}, but Howdah cannot tell which package it was.', spec));
}
