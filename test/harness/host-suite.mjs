// What the integration and real-agents tiers share once their tests are compiled: provision, a scratch copy of
// fixtures/workspace, code-server in smoke-test-driver mode with the fake agents configured, a browser, and the
// mocha suite run inside its extension host with the repo as the extension under development.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fakeAgentSettings } from './config.mjs';
import { launchBrowser } from './browser.mjs';
import { runExtensionTests } from './extension-tests.mjs';
import { provision } from './provision.mjs';
import { addFailure, readResults } from './results.mjs';
import { startCodeServer } from './server.mjs';
import { phase } from './timing.mjs';

/**
 * Runs the compiled suite `testsPath` (its mocha entry point) for tier `name`; `env` reaches the extension host.
 * `ctx` is runTier's ({ runDir, logDir, onCleanup }); `timeoutMs` caps the whole suite (a hang's safety net; each
 * test has its own mocha timeout). `multiRoot`: the window opens a .code-workspace of two folders, the fixture copy
 * (`app`, first, where sessions start) and `lib` holding lib/shared.txt. Resolves to the suite's results.
 */
export async function runHostSuite(name, ctx, testsPath, env = {}, { timeoutMs, multiRoot = false } = {}) {
  const { runDir, logDir, onCleanup } = ctx;
  await phase('provision', provision);
  const { workspace, workspaceFile } = multiRoot ? multiRootWorkspace(path.join(runDir, `${name}-workspace`)) : { workspace: path.join(runDir, 'workspace') };
  if (!multiRoot) fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  const server = await phase('server start', () => startCodeServer({
    runDir, name, folder: workspaceFile ?? workspace, settings: fakeAgentSettings(), smokeTestDriver: true, logDir,
  }));
  onCleanup(server.stop);
  const browser = await phase('browser launch', () => launchBrowser(runDir));
  onCleanup(browser.close);
  const mochaResults = path.join(runDir, 'mocha-results.json');
  const suite = `${name} suite`;
  const code = await phase(suite, () => runExtensionTests({
    page: browser.page, server, folder: workspace, workspaceFile, devPath: REPO, testsPath,
    env: { HOWDAH_RESULTS_FILE: mochaResults, HOWDAH_TEST_USER_DATA: server.dataDir, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '', ...env },
    ...(timeoutMs && !process.env.HOWDAH_SUITE_TIMEOUT_MS ? { timeoutMs } : {}),
  }));
  const results = readResults(mochaResults, suite);
  if (code !== 0 && results.failed === 0) addFailure(results, suite, `ended with ${code}; server log: ${server.logFile}`);
  return results;
}

/** Two folders in one window: `app` (the fixture workspace) and `lib`, named by `multi.code-workspace`. */
function multiRootWorkspace(dir) {
  const app = path.join(dir, 'app');
  const lib = path.join(dir, 'lib');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), app, { recursive: true });
  fs.mkdirSync(lib, { recursive: true });
  fs.writeFileSync(path.join(lib, 'shared.txt'), 'shared between the folders\n');
  const workspaceFile = path.join(dir, 'multi.code-workspace');
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'app' }, { path: 'lib' }], settings: {} }, null, 2));
  return { workspace: app, workspaceFile };
}
