// Agents in the installed .vsix: the first run with no default agent (the panel lists the agents found and not
// found; "Howdah: New Session" asks with a Quick Pick and the choice starts a session and becomes the default), and
// a conversation that comes back after the window reloads (a new extension host: the saved transcript, the agent
// started again by the next message).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sendPrompt } from '../harness/panel.mjs';
import { openHowdahView, openPalette, runCommand } from '../harness/workbench.mjs';
import { closeAllSessions } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

async function until(what, probe, timeout = 30000) {
  for (const deadline = Date.now() + timeout; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

const settingsFile = () => path.join(e2e.server.dataDir, 'User', 'settings.json');
const readSettings = () => JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
const conversation = wv => wv.getByRole('region', { name: 'Conversation' });


describe('agents: first run and reload (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('agents');
  let original;
  before(() => {
    original = fs.readFileSync(settingsFile(), 'utf8');
  });
  after(async () => {
    // Close what this file opened (later files start from an empty panel) and put the settings back.
    const wv = await openHowdahView(e2e.page).catch(() => undefined);
    if (wv) await closeAllSessions(e2e.page, wv).catch(() => {});
    fs.writeFileSync(settingsFile(), original);
  });

  it('with no default agent the panel lists the agents and New Session asks; the fake agent chosen, a session starts', async () => {
    const { page } = e2e;
    // code-server reads the settings file when the window loads (an edit while it is open is not noticed).
    const settings = readSettings();
    delete settings['howdah.defaultAgent'];
    fs.writeFileSync(settingsFile(), JSON.stringify(settings, null, 2));
    await loadWorkbench();
    const wv = await openHowdahView(page);
    await closeAllSessions(page, wv);

    // The panel: every known agent, installed ones with Start, the registry's others with Install.
    const gate = wv.getByRole('region', { name: 'Choose an agent' });
    await gate.waitFor({ timeout: 30000 });
    await gate.getByRole('button', { name: 'Start Fake', exact: true }).waitFor();
    assert.ok(await gate.getByText('Not installed', { exact: false }).count() > 0, 'agents not found are listed, with install hints');
    await shot('first-run-panel');

    // The command: a Quick Pick of the agents.
    const input = await openPalette(page);
    await input.fill('>Howdah: New Session');
    await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Howdah: New Session' }).waitFor({ timeout: 10000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Choose an agent' }).waitFor({ timeout: 15000 });
    await input.fill('Fake');
    await shot('first-run-quick-pick');
    await page.locator('.quick-input-widget').getByRole('option', { name: /^Fake(,|$)/ }).first().click({ timeout: 10000 });

    await conversation(wv).getByText('Ask Fake anything.', { exact: false }).waitFor({ timeout: 30000 });
    await gate.waitFor({ state: 'hidden' });
    await until('the choice to become the default', () => readSettings()['howdah.defaultAgent'] === 'fake', 10000);
    await sendPrompt(wv, 'Show me an example');
    await wv.getByRole('heading', { name: 'Greeting helper' }).waitFor({ timeout: 30000 });
    await shot('first-session');
  });

  it('a conversation comes back after the window reloads, and goes on with the next message', async () => {
    const { page } = e2e;
    // The session from the test above: its transcript is saved (debounced 1.5 s) and its key is in workspace state.
    await page.waitForTimeout(2500);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    const wv = await openHowdahView(page);
    await conversation(wv).getByText('Show me an example', { exact: true }).waitFor({ timeout: 30000 });
    await wv.getByRole('heading', { name: 'Greeting helper' }).waitFor({ timeout: 10000 });
    // A new extension host: the conversation is restored, its agent not running until the next message.
    await wv.locator('.status-tag', { hasText: 'exited' }).waitFor({ timeout: 10000 });
    await shot('restored-after-reload');

    await sendPrompt(wv, 'Once more please');
    await wv.locator('.status-tag').waitFor({ state: 'hidden', timeout: 30000 });
    await until('a second answer', async () => (await wv.getByRole('heading', { name: 'Greeting helper' }).count()) >= 2, 30000);
    await conversation(wv).getByText('cannot resume sessions', { exact: false }).waitFor({ timeout: 10000 });
    await shot('continued-after-reload');
  });

  it('an agent that needs a sign-in shows "Sign in to …" in the panel; its button signs in and the session opens', async () => {
    const { page } = e2e;
    const wv = await openHowdahView(page);
    const input = await openPalette(page);
    await input.fill('>Howdah: Choose Agent');
    await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Howdah: Choose Agent' }).waitFor({ timeout: 10000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Choose an agent' }).waitFor({ timeout: 15000 });
    await input.fill('Fake (auth)');
    await page.locator('.quick-input-widget').getByRole('option', { name: /^Fake \(auth\)(,|$)/ }).first().click({ timeout: 10000 });

    const signIn = wv.getByRole('region', { name: 'Sign in to Fake (auth)' });
    await signIn.waitFor({ timeout: 30000 });
    assert.ok((await signIn.innerText()).includes('Authentication required'), 'the agent\'s words are shown');
    await signIn.getByRole('button', { name: 'Log in in a terminal', exact: true }).waitFor();
    await shot('sign-in');
    await signIn.getByRole('button', { name: 'Log in to Fake', exact: true }).click();
    await conversation(wv).getByText('Ask Fake (auth) anything.', { exact: false }).waitFor({ timeout: 30000 });
    await signIn.waitFor({ state: 'hidden' });
    await sendPrompt(wv, 'hello');
    await conversation(wv).getByText('You are signed in.', { exact: true }).waitFor({ timeout: 30000 });
    await shot('signed-in');
  });
});
