// For e2e tests that talk to an agent other than the default (`demo`): make another registered agent (see
// fakeAgentSettings in test/harness/config.mjs: `test-<name>` runs test/integration/scenarios/<name>.json) the default
// in the server's user settings, and put the old default back afterwards. The workbench must be (re)loaded after the
// switch, which every test does first anyway. Also small waiting helpers.
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../harness/workbench.mjs';
import { e2e } from './context.mjs';

const settingsFile = () => path.join(e2e.server.dataDir, 'User', 'settings.json');

function readSettings() {
  return JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
}

/** Makes `agentId` the default agent; returns a function that restores the previous default. */
export function useDefaultAgent(agentId) {
  const settings = readSettings();
  if (!settings['howdah.agents']?.[agentId]) throw new Error(`no agent ${agentId} in the e2e settings`);
  const previous = settings['howdah.defaultAgent'];
  fs.writeFileSync(settingsFile(), JSON.stringify({ ...settings, 'howdah.defaultAgent': agentId }, null, 2));
  return () => fs.writeFileSync(settingsFile(), JSON.stringify({ ...readSettings(), 'howdah.defaultAgent': previous }, null, 2));
}

/** Sets one user setting (undefined removes it); the workbench must be (re)loaded to see it. */
export function setUserSetting(key, value) {
  const settings = readSettings();
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  fs.writeFileSync(settingsFile(), JSON.stringify(settings, null, 2));
}

/** For a describe block: `agentId` is the default agent while its tests run, the previous one afterwards. */
export function useDefaultAgentForSuite(agentId) {
  let restore;
  before(() => { restore = useDefaultAgent(agentId); });
  after(() => restore?.());
}

/** Polls `probe` until it is truthy; `what` names the wait in the error. */
export async function until(what, probe, timeout = 30000) {
  for (const deadline = Date.now() + timeout; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

/** The panel with no conversation in it. */
export const emptyPanel = (wv) => wv.getByRole('region', { name: 'Conversation' }).getByText('No agent session yet', { exact: false });

/** Closes every open conversation (earlier tests leave theirs, and a reload brings them back). */
export async function closeAllSessions(page, wv) {
  // Conversations open before the load are restored a moment after activation.
  await page.waitForTimeout(1500);
  // As many as the earlier suites left (the panel suite alone starts a dozen), one close at a time.
  for (let i = 0; i < 40 && !(await emptyPanel(wv).isVisible()); i++) {
    await runCommand(page, 'Howdah: Close Session');
    await page.waitForTimeout(300);
  }
  await emptyPanel(wv).waitFor({ timeout: 10000 });
}
