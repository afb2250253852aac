// What the e2e tests share, filled in by run.mjs before mocha starts: the server (with the .vsix
// installed), the browser page, the scratch workspace, where screenshots go, and the JSONL file every fake agent
// appends its messages to (FAKE_AGENT_LOG).
import fs from 'node:fs';
import path from 'node:path';
import { screenshotter } from '../harness/browser.mjs';
import { howdahWebview, openWorkbench, runCommand } from '../harness/workbench.mjs';
import { phase } from '../harness/timing.mjs';

export const e2e = { server: null, page: null, workspace: null, resultsDir: null, agentLog: null };

/** (Re)loads the workbench on the scratch workspace: a fresh window and extension host per test. */
export async function loadWorkbench() {
  await phase('page load (workbench shown)', () => openWorkbench(e2e.page, e2e.server.url()));
}

/**
 * Editors a failed test leaves unsaved would come back with every later window (hot exit), and Howdah then holds
 * each prompt to show them: the test's retry and every test after it would fail on its leftovers. Reverted while the
 * failed test's window is still up, so one failure stays one.
 */
async function revertLeftovers() {
  const dirty = e2e.page.locator('.tabs-container .tab.dirty');
  for (let left = await dirty.count(), tries = 0; left > 0 && tries < 10; tries++) {
    console.log(`    reverting an editor the failed test left unsaved: ${(await dirty.first().innerText()).split('\n')[0]}`);
    await dirty.first().click();
    await runCommand(e2e.page, 'File: Revert File');
    for (const end = Date.now() + 5000; (await dirty.count()) >= left && Date.now() < end;) await e2e.page.waitForTimeout(100);
    left = await dirty.count();
  }
}

/**
 * The hot-exit backups of unsaved editors (files under the server's user data, one per editor): a window loaded while
 * one is left brings that editor back unsaved.
 */
export function hotExitBackups() {
  const dir = path.join(e2e.server.dataDir, 'User', 'Backups');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => path.join(f.parentPath ?? f.path, f.name));
}

/** A screenshotter writing into test-results/e2e/<slug>/. */
/** Writes `content` to `rel` in the run's workspace (its folders made); returns the file's path. */
export function writeWorkspaceFile(rel, content) {
  const file = path.join(e2e.workspace, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

export function screenshots(slug) {
  return screenshotter(e2e.page, path.join(e2e.resultsDir, slug));
}

/**
 * For a describe block: its screenshots go to test-results/e2e/<slug>/ and a failed test leaves a "failure" one.
 * Returns the function that takes a named screenshot (usable once the suite's hooks run).
 */
export function suiteScreenshots(slug) {
  let shot;
  before(() => { shot = screenshots(slug); });
  afterEach(async function () {
    // A failed attempt that mocha will retry has no state yet (only a last failure is 'failed'): keep its evidence too.
    if (!this.currentTest || this.currentTest.state === 'passed' || this.currentTest.isPending()) return;
    await shot('failure').catch(() => {});
    keepExtensionHostLogs(path.join(e2e.resultsDir, slug, 'failure-logs'));
    await printFailureEvidence();
    await revertLeftovers().catch((e) => console.log(`    could not revert what the failed test left unsaved: ${e.message.split('\n')[0]}`));
  });
  return (label) => shot(label);
}

/**
 * A failed test keeps what the extension hosts logged (Howdah's channels — chat, edits, each agent's log — and the
 * host's own log), since the run's folder is deleted at the end: `<session>/<exthostN>/<file>`.
 */
function keepExtensionHostLogs(into) {
  for (const { session, host, dir } of extensionHostLogDirs()) {
    const files = [
      ...(fs.existsSync(path.join(dir, 'remoteexthost.log')) ? ['remoteexthost.log'] : []),
      ...(fs.existsSync(path.join(dir, 'howdah.howdah')) ? fs.readdirSync(path.join(dir, 'howdah.howdah')).map((f) => path.join('howdah.howdah', f)) : []),
    ];
    for (const file of files) {
      const target = path.join(into, session, host, path.basename(file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(dir, file), target);
    }
  }
}

/** The server's extension host log folders, `<logs>/<session>/<exthostN>`. */
function* extensionHostLogDirs() {
  const logs = path.join(e2e.server?.dataDir ?? '', 'logs');
  if (!e2e.server || !fs.existsSync(logs)) return;
  for (const session of fs.readdirSync(logs)) {
    for (const host of fs.readdirSync(path.join(logs, session)).filter((n) => n.startsWith('exthost'))) {
      yield { session, host, dir: path.join(logs, session, host) };
    }
  }
}

/**
 * What the panel showed and what the newest extension host's chat channel said when a test failed, in the run's own
 * output: a CI run keeps its log, not test-results/.
 */
async function printFailureEvidence() {
  if (!e2e.page) return;
  const shown = await howdahWebview(e2e.page).locator('body').innerText({ timeout: 3000 }).catch(() => '(the panel could not be read)');
  const log = newestChatLog();
  const lines = (text, n) => text.split('\n').map((l) => l.trimEnd()).filter(Boolean).slice(-n).map((l) => `      | ${l}`).join('\n');
  console.log(`    the panel showed (its last lines):\n${lines(shown, 25)}`);
  if (log) console.log(`    Howdah Chat (${path.basename(path.dirname(path.dirname(log)))}), its last lines:\n${lines(fs.readFileSync(log, 'utf8'), 15)}`);
}

function newestChatLog() {
  const found = [];
  for (const { dir } of extensionHostLogDirs()) {
    const file = path.join(dir, 'howdah.howdah', 'Howdah Chat.log');
    if (fs.existsSync(file)) found.push({ file, at: fs.statSync(file).mtimeMs });
  }
  return found.sort((a, b) => b.at - a.at)[0]?.file;
}
