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
 * test has its own mocha timeout). Resolves to the suite's results.
 */
export async function runHostSuite(name, ctx, testsPath, env = {}, { timeoutMs } = {}) {
  const { runDir, logDir, onCleanup } = ctx;
  await phase('provision', provision);
  const workspace = path.join(runDir, 'workspace');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  const server = await phase('server start', () => startCodeServer({
    runDir, name, folder: workspace, settings: fakeAgentSettings(), smokeTestDriver: true, logDir,
  }));
  onCleanup(server.stop);
  const browser = await phase('browser launch', () => launchBrowser(runDir));
  onCleanup(browser.close);
  const mochaResults = path.join(runDir, 'mocha-results.json');
  const suite = `${name} suite`;
  const code = await phase(suite, () => runExtensionTests({
    page: browser.page, server, folder: workspace, devPath: REPO, testsPath,
    env: { HOWDAH_RESULTS_FILE: mochaResults, HOWDAH_TEST_USER_DATA: server.dataDir, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '', ...env },
    ...(timeoutMs && !process.env.HOWDAH_SUITE_TIMEOUT_MS ? { timeoutMs } : {}),
  }));
  const results = readResults(mochaResults, suite);
  if (code !== 0 && results.failed === 0) addFailure(results, suite, `ended with ${code}; server log: ${server.logFile}`);
  return results;
}
