// `npm run test:integration`: the integration tier. Builds the extension and this suite, starts a
// code-server in smoke-test-driver mode on a scratch copy of fixtures/workspace, and runs the suite
// inside its extension host with the repo loaded as the extension under development.
// HOWDAH_SKIP_BUILD=1 reuses out/; HOWDAH_GREP=<text> runs only matching tests; VERBOSE=1 shows workbench logs.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, fakeAgentSettings } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { runExtensionTests } from '../harness/extension-tests.mjs';
import { npmRun } from '../harness/npm.mjs';
import { provision } from '../harness/provision.mjs';
import { addFailure, readResults } from '../harness/results.mjs';
import { startCodeServer } from '../harness/server.mjs';
import { runTier } from '../harness/tier.mjs';
import { phase } from '../harness/timing.mjs';
import { compileIntegrationTests } from './build.mjs';

await runTier('integration', async ({ runDir, logDir, onCleanup }) => {
  if (!process.env.HOWDAH_SKIP_BUILD) await phase('build extension', () => npmRun('build'));
  const index = await phase('compile integration tests', compileIntegrationTests);
  await phase('provision', provision);
  const workspace = path.join(runDir, 'workspace');
  fs.cpSync(path.join(REPO, 'fixtures', 'workspace'), workspace, { recursive: true });
  const server = await phase('server start', () => startCodeServer({
    runDir, name: 'integration', folder: workspace, settings: fakeAgentSettings(), smokeTestDriver: true, logDir,
  }));
  onCleanup(server.stop);
  const browser = await phase('browser launch', () => launchBrowser(runDir));
  onCleanup(browser.close);
  const mochaResults = path.join(runDir, 'mocha-results.json');
  const code = await phase('integration suite', () => runExtensionTests({
    page: browser.page, server, folder: workspace, devPath: REPO, testsPath: index,
    env: { HOWDAH_RESULTS_FILE: mochaResults, HOWDAH_TEST_USER_DATA: server.dataDir, HOWDAH_GREP: process.env.HOWDAH_GREP ?? '' },
  }));
  const results = readResults(mochaResults, 'integration suite');
  if (code !== 0 && results.failed === 0) addFailure(results, 'integration suite', `ended with ${code}; server log: ${server.logFile}`);
  return results;
});
