// `npm run test:e2e`: the end-to-end tier. Packages the .vsix, installs it into a clean code-server,
// opens the workbench in headless Chromium and runs the *.test.mjs files here with mocha, in this process.
// HOWDAH_GREP=<text> runs only matching tests; HOWDAH_VSIX=<file> installs that .vsix instead of packaging. Screenshots: test-results/e2e/<test>/.
// `--smoke` runs only the suites of SMOKE. HOWDAH_VSCODE=oldest runs on the oldest VS Code engines.vscode claims
// (config.mjs VSCODE_HOSTS; `npm run test:e2e:oldest` is that with --smoke), its results under test-results/e2e-oldest/.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST, HOST_NAME, REPO, fakeAgentSettings } from '../harness/config.mjs';
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
/**
 * The product's core, for the oldest VS Code: the view loads; a conversation streams, asks permission, writes, and its
 * edit opens in the diff editor and is accepted; a pending change is reviewed hunk by hunk through the diff editor's
 * lenses, title-bar buttons and palette commands, and outlives a window reload.
 */
const SMOKE = ['1-view.test.mjs', '2-chat-flow.test.mjs', '5-review.test.mjs'];
const smoke = process.argv.includes('--smoke');

async function runMocha(output) {
  const Mocha = require('mocha');
  const mocha = new Mocha({
    reporter: require('../harness/mocha-reporter.cjs'), reporterOption: { output },
    timeout: 120000, grep: process.env.HOWDAH_GREP || undefined,
    // A real browser on a real VS Code on a 2-core machine: one retry absorbs a lost click or a slow paint; the
    // reporter prints every retry, so a test that needs it is visible. HOWDAH_E2E_RETRIES=0 turns it off.
    retries: Number(process.env.HOWDAH_E2E_RETRIES ?? 1),
  });
  for (const f of fs.readdirSync(HERE).filter(f => f.endsWith('.test.mjs') && (!smoke || SMOKE.includes(f))).sort()) mocha.addFile(path.join(HERE, f));
  await mocha.loadFilesAsync();
  return new Promise(resolve => mocha.run(resolve));
}

/** The oldest host must be the VS Code engines.vscode names, or its smoke tests another version than the one claimed. */
function checkOldestIsClaimed(vscode) {
  const claimed = /^\^?(\d+\.\d+)\./.exec(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).engines.vscode)?.[1];
  if (vscode.split('.').slice(0, 2).join('.') !== claimed) {
    throw new Error(`the oldest host is VS Code ${vscode} but engines.vscode claims ${claimed}: change VSCODE_HOSTS.oldest in test/harness/config.mjs`);
  }
}

await runTier(HOST_NAME === 'current' ? 'e2e' : `e2e-${HOST_NAME}`, async ({ runDir, logDir, onCleanup }) => {
  const vsix = process.env.HOWDAH_VSIX || await phase('package .vsix', () => packageExtension());
  const { vscode } = await phase(`provision (VS Code ${HOST.vscode})`, provision);
  if (HOST_NAME === 'oldest') checkOldestIsClaimed(vscode);
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
