// `npm run test:e2e`: the end-to-end tier. Packages the .vsix, installs it into a clean code-server,
// opens the workbench in headless Chromium and runs the *.test.mjs files here with mocha, in this process.
// HOWDAH_GREP=<text> runs only matching tests; HOWDAH_VSIX=<file> installs that .vsix instead of packaging. Screenshots: test-results/e2e/<test>/.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO, fakeAgentSettings } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { provision } from '../harness/provision.mjs';
import { readResults } from '../harness/results.mjs';
import { startCodeServer } from '../harness/server.mjs';
import { runTier } from '../harness/tier.mjs';
import { phase } from '../harness/timing.mjs';
import { packageExtension } from '../tools/package.mjs';
import { e2e } from './context.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

async function runMocha(output) {
  const Mocha = require('mocha');
  const mocha = new Mocha({
    reporter: require('../harness/mocha-reporter.cjs'), reporterOption: { output },
    timeout: 120000, grep: process.env.HOWDAH_GREP || undefined,
    // A real browser on a real VS Code on a 2-core machine: one retry absorbs a lost click or a slow paint; the
    // reporter prints every retry, so a test that needs it is visible. HOWDAH_E2E_RETRIES=0 turns it off.
    retries: Number(process.env.HOWDAH_E2E_RETRIES ?? 1),
  });
  for (const f of fs.readdirSync(HERE).filter(f => f.endsWith('.test.mjs')).sort()) mocha.addFile(path.join(HERE, f));
  await mocha.loadFilesAsync();
  return new Promise(resolve => mocha.run(resolve));
}

await runTier('e2e', async ({ runDir, logDir, onCleanup }) => {
  const vsix = process.env.HOWDAH_VSIX || await phase('package .vsix', () => packageExtension());
  await phase('provision', provision);
  const workspace = path.join(runDir, 'workspace');
  // Every fake agent of the run appends what it receives and sends here (see fixtures/fake-agent/README.md).
  const agentLog = path.join(runDir, 'fake-agent.jsonl');
  fs.cpSync(path.join(REPO, 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  const server = await phase('server start (incl. .vsix install)', () => startCodeServer({
    runDir, name: 'e2e', folder: workspace, settings: fakeAgentSettings('demo'), vsix: [vsix], logDir,
    env: { FAKE_AGENT_LOG: agentLog },
  }));
  onCleanup(server.stop);
  const browser = await phase('browser launch', () => launchBrowser(runDir));
  onCleanup(browser.close);
  Object.assign(e2e, { server, page: browser.page, workspace, resultsDir: logDir, agentLog });
  const output = path.join(runDir, 'mocha-results.json');
  await phase('e2e suite', () => runMocha(output));
  return readResults(output, 'e2e suite');
});
