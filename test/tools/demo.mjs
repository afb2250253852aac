// `npm run demo`: build and package the .vsix, install it into a private VS Code (code-server), register
// the scripted demo agent as the default, open a scratch copy of fixtures/demo-workspace and print the URL.
// Stays in the foreground until Ctrl+C, then stops everything and removes its folders.
//   npm run demo -- --port 8080             listen on that port (default: a free one)
//   npm run demo -- --screenshot out.png    render the panel mid-conversation (permission prompt) and exit
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, RESULTS, fakeAgent } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { newSession, permissionOption, sendPrompt } from '../harness/panel.mjs';
import { atExit, markRun, stopEverything } from '../harness/processes.mjs';
import { provision } from '../harness/provision.mjs';
import { createRunDir, removeRunDir, startCodeServer } from '../harness/server.mjs';
import { log, phase } from '../harness/timing.mjs';
import { openHowdahView, openWorkbench } from '../harness/workbench.mjs';
import { packageExtension } from './package.mjs';

const { values: opts } = parseArgs({ options: { screenshot: { type: 'string' }, port: { type: 'string' } } });
// npm runs scripts in the repo root; a relative path means relative to where `npm run demo` was typed
const screenshotFile = opts.screenshot && path.resolve(process.env.INIT_CWD || process.cwd(), opts.screenshot);

const settings = {
  'howdah.agents': { demo: fakeAgent('demo', 'Demo agent') },  // the .vsix has no fixtures: use the repo's
  'howdah.defaultAgent': 'demo',
  'git.openRepositoryInParentFolders': 'never',
};

async function screenshotMidConversation(server, runDir) {
  const browser = await phase('browser launch', () => launchBrowser(runDir, { width: 1280, height: 1280 }));
  try {
    const { page } = browser;
    await phase('page load (workbench shown)', () => openWorkbench(page, server.url()));
    const wv = await phase('open the Howdah view', () => openHowdahView(page));
    await phase('conversation up to the permission prompt', async () => {
      await newSession(wv);
      await sendPrompt(wv, 'greet() prints "Hello, undefined!" when called without a name. Can you fix it?');
      await permissionOption(wv, 'Allow');
    });
    await page.waitForTimeout(500);  // let the last chunks render
    fs.mkdirSync(path.dirname(screenshotFile), { recursive: true });
    await page.screenshot({ path: screenshotFile });
    console.log(`screenshot: ${screenshotFile}`);
  } catch (e) {
    const failure = path.join(RESULTS, 'demo-failure.png');
    fs.mkdirSync(RESULTS, { recursive: true });
    await browser.page.screenshot({ path: failure }).catch(() => {});
    throw new Error(`${e.message}\n(the page at the time: ${failure})`);
  } finally {
    await browser.close();
  }
}

let status = 0;
const runDir = createRunDir('demo');
try {
  const vsix = process.env.HOWDAH_VSIX || await phase('package .vsix', () => packageExtension());
  await phase('provision', provision);
  // a short path for the scratch copy: the panel and the screenshots show it
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-demo-'));
  markRun(scratch);
  atExit(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const workspace = path.join(scratch, 'greeter');
  fs.cpSync(path.join(REPO, 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  const server = await phase('server start (incl. .vsix install)', () => startCodeServer({
    runDir, name: 'demo', folder: workspace, settings, vsix: [vsix], logDir: runDir, port: Number(opts.port) || undefined,
  }));
  if (screenshotFile) {
    await screenshotMidConversation(server, runDir);
  } else {
    console.log(`\nHowdah demo: open ${server.url()}\n(workspace: ${workspace}; server log: ${server.logFile})\nCtrl+C stops it.\n`);
    await new Promise(() => {});  // until Ctrl+C: the harness's signal handler stops the server and removes runDir
  }
} catch (e) {
  console.error(e.message);
  status = 1;
} finally {
  const left = await stopEverything();
  if (left.length) { log(`${left.length} process(es) were left behind`); status = 1; }
  removeRunDir(runDir);
}
process.exit(status);
