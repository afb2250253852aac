// One code-server (a real VS Code) per call: free port on 127.0.0.1, private user data, extensions,
// HOME and XDG folders, the testable settings, started as its own process group.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOST, RUNS, TESTABLE_SETTINGS } from './config.mjs';
import { atExit, markRun, spawnGroup, stopGroup } from './processes.mjs';
import { installation, hostNodeEnv } from './provision.mjs';
import { log, phase } from './timing.mjs';

/** Removes run folders left by runs that died without cleaning up (their pid ends the name). */
function removeStaleRunDirs() {
  for (const name of fs.existsSync(RUNS) ? fs.readdirSync(RUNS) : []) {
    const pid = Number(name.split('-').pop());
    let alive = false;
    try { process.kill(pid, 0); alive = true; } catch { /* dead */ }
    if (!alive) removeRunDir(path.join(RUNS, name));
  }
}

/** A fresh private folder for this run; every process started by the run mentions it in its environment. */
export function createRunDir(tier) {
  removeStaleRunDirs();
  const dir = path.join(RUNS, `${tier}-${Date.now().toString(36)}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  markRun(dir);
  atExit(() => removeRunDir(dir));
  return dir;
}

export function removeRunDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The server's environment: the host's Node first on PATH, private HOME/XDG, no leaked VS Code variables. */
function serverEnv(dir, runDir, extra) {
  const env = hostNodeEnv();
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  const home = path.join(dir, 'home');
  for (const sub of ['.config', '.local/share', '.cache', 'run']) fs.mkdirSync(path.join(home, sub), { recursive: true });
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_RUNTIME_DIR: path.join(home, 'run'),
    HOWDAH_TEST_RUN: runDir,
    ...extra,
  };
}

function waitForExit(child) {
  return new Promise(resolve => child.on('exit', (code, signal) => resolve(code ?? signal)));
}

async function waitHealthy(base, child, logFile, timeoutMs = 60000) {
  let exited = null;
  child.once('exit', (code, signal) => { exited = code ?? signal; });
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (exited !== null) break;
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await new Promise(r => setTimeout(r, 100));
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  throw new Error(`code-server ${exited !== null ? `exited (${exited})` : 'did not answer /healthz'} — ${logFile}:\n${tail}`);
}

/**
 * Prepares a server's folders and settings, installs `vsix` files into its extensions folder, starts
 * it on a free port and waits for /healthz. `smokeTestDriver` enables the test mode in which the
 * workbench honours extensionDevelopmentPath/extensionTestsPath from its URL.
 */
export async function startCodeServer({ runDir, name, folder, settings = {}, vsix = [], smokeTestDriver = false, env = {}, logDir, port: wantedPort }) {
  const { nodeBin, codeServerEntry } = installation();
  const dir = path.join(runDir, name);
  const dataDir = path.join(dir, 'data');
  const extensionsDir = path.join(dir, 'extensions');
  fs.mkdirSync(path.join(dataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'User', 'settings.json'), JSON.stringify({ ...TESTABLE_SETTINGS, ...settings }, null, 2));
  const logFile = path.join(logDir ?? dir, `${name}-server.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, '');
  const childEnv = serverEnv(dir, runDir, env);
  const common = ['--user-data-dir', dataDir, '--extensions-dir', extensionsDir];

  for (const file of vsix) {
    await phase(`install ${path.basename(file)}`, async () => {
      const child = spawnGroup(nodeBin, [codeServerEntry, ...common, '--install-extension', file], { env: childEnv, logFile });
      const code = await waitForExit(child);
      await stopGroup(child.pid, 0);
      if (code !== 0) throw new Error(`installing ${file} failed (${code}); see ${logFile}`);
    });
    log(`installed ${path.basename(file)} into ${extensionsDir}`);
  }

  const port = wantedPort || await freePort();
  const config = path.join(dir, 'config.yaml');
  fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    codeServerEntry, '--config', config, ...common,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened',
    // An extension host whose window went away (a reload) ends after 30 s instead of 3 h, where code-server allows it.
    ...(HOST.lacksFlags?.includes('--reconnection-grace-time') ? [] : ['--reconnection-grace-time', '30']),
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(folder ? [folder] : []),
  ];
  const child = spawnGroup(nodeBin, args, { env: childEnv, cwd: dir, logFile });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(base, child, logFile);
  } catch (e) {
    await stopGroup(child.pid);
    throw e;
  }
  return {
    port, base, dataDir, extensionsDir, logFile, pid: child.pid,
    /** The workbench URL for `folder` (default: the folder the server was started with). */
    url: (f = folder) => (f ? `${base}/?folder=${encodeURIComponent(f)}` : base),
    /** A vscode-remote URI for a server-side path, as the workbench of this server names it. */
    remote: p => `vscode-remote://127.0.0.1:${port}${p}`,
    stop: () => stopGroup(child.pid),
  };
}
