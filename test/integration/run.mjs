// `npm run test:integration`: the integration tier. Builds the extension and this suite, starts a
// code-server in smoke-test-driver mode on a scratch copy of fixtures/workspace, and runs the suite
// inside its extension host with the repo loaded as the extension under development.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, RESULTS, fakeAgentSettings } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { runExtensionTests } from '../harness/extension-tests.mjs';
import { npmRun } from '../harness/npm.mjs';
import { stopEverything } from '../harness/processes.mjs';
import { provision } from '../harness/provision.mjs';
import { addFailure, finishTier, readResults } from '../harness/results.mjs';
import { createRunDir, removeRunDir, startCodeServer } from '../harness/server.mjs';
import { phase } from '../harness/timing.mjs';
import { compileIntegrationTests } from './build.mjs';

const logDir = path.join(RESULTS, 'integration');
fs.mkdirSync(logDir, { recursive: true });
const runDir = createRunDir('integration');
const mochaResults = path.join(runDir, 'mocha-results.json');
let results = { passed: 0, failed: 0, pending: 0, failures: [] };
let server;
let browser;

try {
  if (!process.env.HOWDAH_SKIP_BUILD) await phase('build extension', () => npmRun('build'));
  const index = await phase('compile integration tests', compileIntegrationTests);
  await phase('provision', provision);
  const workspace = path.join(runDir, 'workspace');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  server = await phase('server start', () => startCodeServer({
    runDir, name: 'integration', folder: workspace, settings: fakeAgentSettings(), smokeTestDriver: true, logDir,
  }));
  browser = await phase('browser launch', () => launchBrowser(runDir));
  const code = await phase('integration suite', () => runExtensionTests({
    page: browser.page, server, folder: workspace, devPath: REPO, testsPath: index,
    env: { HOWDAH_RESULTS_FILE: mochaResults, HOWDAH_TEST_USER_DATA: server.dataDir, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '' },
  }));
  results = readResults(mochaResults, 'integration suite');
  if (code !== 0 && results.failed === 0) addFailure(results, 'integration suite', `ended with ${code}; server log: ${server.logFile}`);
} catch (e) {
  addFailure(results, 'integration harness', e.stack ?? e);
  console.error(e.stack ?? e);
} finally {
  await browser?.close();
  await server?.stop();
  const left = await phase('cleanup', () => stopEverything());
  if (left.length) addFailure(results, 'no process left behind', left.map(p => `${p.pid} ${p.cmd}`).join('\n'));
  removeRunDir(runDir);
}
process.exit(finishTier('integration', results));
