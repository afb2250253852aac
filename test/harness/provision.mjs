// Provisioning: the system packages, Node and code-server (a full VS Code) of the host (config.mjs HOST) in the
// git-ignored cache.
// The first run installs (a couple of minutes); later runs find a matching stamp and are ready at once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APT_PACKAGES, CHROMIUM, CODE_SERVER_VERSION, HOST, NODE_PACKAGE, NODE_VERSION } from './config.mjs';
import { log } from './timing.mjs';

// The host's own folder: .vscode-test/ for the current VS Code, a folder of its own under it for the oldest.
const CACHE = HOST.cache;
const NODE_DIR = path.join(CACHE, `node-${NODE_VERSION}`);
const NODE_PKG = path.join(NODE_DIR, 'node_modules', NODE_PACKAGE);
const CS_DIR = path.join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
const CS_ENTRY = path.join(CS_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const STAMP = path.join(CACHE, 'provisioned.json');
const LOCK = path.join(CACHE, 'provision.lock');
const WANTED = { node: NODE_VERSION, codeServer: CODE_SERVER_VERSION };

/** What the tiers need to start a VS Code: the host's Node and code-server's entry script. */
export function installation() {
  const nodeBin = path.join(NODE_PKG, 'bin', 'node');
  return { nodeBin, nodeDir: NODE_PKG, codeServerEntry: CS_ENTRY, codeServerDir: CS_DIR };
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  return r;
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Debian packages not installed, by dpkg; without dpkg, judged from the files they provide. */
function missingPackages(wanted) {
  if (onPath('dpkg-query')) {
    return wanted.filter(p => {
      const r = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', p], { encoding: 'utf8' });
      return r.status !== 0 || r.stdout.trim() !== 'installed';
    });
  }
  const present = {
    chromium: () => fs.existsSync(CHROMIUM),
    'libkrb5-dev': () => fs.existsSync('/usr/include/gssapi/gssapi.h'),
    'build-essential': () => onPath('g++') && onPath('make'),
    python3: () => onPath('python3'),
    ripgrep: () => onPath('rg'),
  };
  return wanted.filter(p => !present[p]());
}

/**
 * Installs missing system packages with apt-get when root; otherwise stops with the command to run. Every tier calls
 * this for what it needs before it starts, so `npm ci && npm test` works on a machine that never ran the project.
 */
export function ensureSystemPackages(wanted = APT_PACKAGES) {
  const missing = missingPackages(wanted);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing system packages: ${missing.join(', ')}. Install them with:\n  sudo ${command.replace('&& apt-get', '&& sudo apt-get')}`);
  }
  log(`installing system packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...missing], { env });
  const still = missingPackages(wanted);
  if (still.length) throw new Error(`apt-get did not install: ${still.join(', ')}`);
}

function npmInstall(dir, packageName, spec, env, logFile) {
  fs.mkdirSync(dir, { recursive: true });
  // the folder's own package must not be named like what it installs (npm refuses), so name it after us
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: packageName, private: true }, null, 2));
  const args = ['install', '--no-audit', '--no-fund', '--no-save', '--foreground-scripts', spec];
  const out = fs.openSync(logFile, 'w');
  const r = spawnSync('npm', args, { cwd: dir, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  if (r.status !== 0) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`npm install ${spec} failed (log: ${logFile}):\n${tail}`);
  }
}

function nodeVersionOk(nodeBin) {
  const r = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === `v${NODE_VERSION}`;
}

function ensureNode() {
  const { nodeBin } = installation();
  if (nodeVersionOk(nodeBin)) return;
  log(`installing ${NODE_PACKAGE}@${NODE_VERSION} from npm`);
  fs.rmSync(NODE_DIR, { recursive: true, force: true });
  npmInstall(NODE_DIR, 'howdah-node-cache', `${NODE_PACKAGE}@${NODE_VERSION}`, process.env, path.join(CACHE, 'node-install.log'));
  if (!nodeVersionOk(nodeBin)) throw new Error(`${nodeBin} is not Node ${NODE_VERSION}`);
}

/** Environment that runs npm and node-gyp on the host's Node (code-server's postinstall refuses any other major). */
export function hostNodeEnv(base = process.env) {
  const { nodeBin, nodeDir } = installation();
  // Run from `npm test`, we inherit the outer npm's npm_* variables, and npm reads npm_config_* as its own config:
  // npm_config_user_agent would still name the outer Node and code-server's postinstall checks exactly that.
  const env = Object.fromEntries(Object.entries(base).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${base.PATH}`, npm_config_nodedir: nodeDir };
}

/**
 * For a code-server whose install downloads rg (HOST.ripgrep): the archive it would download, made from Debian's rg, in
 * the download's cache under a TMPDIR of our own. Returns the environment that points the install there.
 */
function seedRipgrepDownload(env) {
  if (!HOST.ripgrep) return env;
  const tmp = path.join(CACHE, 'tmp');
  const dir = path.join(tmp, HOST.ripgrep.cache);
  fs.mkdirSync(dir, { recursive: true });
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  run('tar', ['czf', path.join(dir, HOST.ripgrep.asset), '-C', path.dirname(rg), path.basename(rg)]);
  return { ...env, TMPDIR: tmp };
}

function ensureCodeServer() {
  if (fs.existsSync(CS_ENTRY)) return;
  log(`installing code-server@${CODE_SERVER_VERSION} from npm (builds native modules; about 2 minutes)`);
  fs.rmSync(CS_DIR, { recursive: true, force: true });
  // code-server 4.90's postinstall stops when run as root (CI is) unless npm says unsafe-perm; npm 10 no longer has
  // that option, but the script only reads the variable. Later code-servers dropped the check.
  const env = seedRipgrepDownload({ ...hostNodeEnv(), npm_config_unsafe_perm: 'true' });
  npmInstall(CS_DIR, 'howdah-vscode-host', `code-server@${CODE_SERVER_VERSION}`, env, path.join(CACHE, 'code-server-install.log'));
  if (!fs.existsSync(CS_ENTRY)) throw new Error(`code-server installed but ${CS_ENTRY} is missing`);
}

function readStamp() {
  try { return JSON.parse(fs.readFileSync(STAMP, 'utf8')); } catch { return {}; }
}

/** One provisioning at a time per cache (two `npm test` runs may start together). */
async function withLock(fn) {
  fs.mkdirSync(CACHE, { recursive: true });
  for (let warned = false; ;) {
    try { fs.mkdirSync(LOCK); break; } catch (e) { if (e.code !== 'EEXIST') throw e; }
    const holder = Number(fs.readFileSync(path.join(LOCK, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
    let alive = false;
    try { if (holder) { process.kill(holder, 0); alive = true; } } catch { /* dead */ }
    if (!alive && holder) { fs.rmSync(LOCK, { recursive: true, force: true }); continue; }
    if (!warned) { log(`waiting for another provisioning (pid ${holder || '?'}) to finish`); warned = true; }
    await new Promise(r => setTimeout(r, 500));
  }
  fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
  try { return await fn(); } finally { fs.rmSync(LOCK, { recursive: true, force: true }); }
}

/** Makes sure everything is installed; returns `installation()`. Fast when the stamp matches. */
export async function provision() {
  ensureSystemPackages([...APT_PACKAGES, ...(HOST.apt ?? [])]);
  const stamp = readStamp();
  const inst = installation();
  if (!(stamp.node === WANTED.node && stamp.codeServer === WANTED.codeServer && fs.existsSync(inst.nodeBin) && fs.existsSync(CS_ENTRY))) {
    await withLock(async () => {
      ensureNode();
      ensureCodeServer();
      fs.writeFileSync(STAMP, JSON.stringify({ ...WANTED, at: new Date().toISOString() }, null, 2));
    });
  }
  // The pin names the VS Code a tier claims to run on (the oldest smoke stands on it): say so when code-server differs.
  const vscode = JSON.parse(fs.readFileSync(path.join(CS_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'), 'utf8')).version;
  if (vscode !== HOST.vscode) throw new Error(`code-server ${CODE_SERVER_VERSION} is VS Code ${vscode}, config.mjs says ${HOST.vscode}`);
  return { ...inst, vscode };
}
