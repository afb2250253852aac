// Issue 19: the "Get started with Howdah" walkthrough. It opens by itself once after install (the harness turns
// `workbench.welcomePage.walkthroughs.openOnInstall` off for the other suites; this one turns it on), not again on the
// next load, and from the chat view's `…` menu. Its steps complete as the user does them, driven by the fake agent
// (test/integration/scenarios/review-two-hunks.json): a session starts (choose an agent, sign in), the agent changes a
// file (ask for a change), a hunk is accepted in the diff editor (review), the turn's checkpoint is restored (undo).
// First of the suites, so that no earlier test has done a step already.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { agentChangesPane, lensAction, lensLine, openHowdahView, runCommand } from '../harness/workbench.mjs';
import { closeAllSessions, setUserSetting, until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots, writeWorkspaceFile } from './context.mjs';

const STEPS = ['chooseAgent', 'signIn', 'askForChange', 'reviewHunks', 'undoCheckpoint'];
const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}: as it was\n`).join('');

/** A step of Howdah's walkthrough, in the walkthrough editor shown now. */
const step = (page, id) => page.locator(`button.getting-started-step[data-step-id="howdah.howdah#firstSteps#${id}"]`).first();
const stepDone = async (page, id) => (await step(page, id).getAttribute('aria-checked').catch(() => null)) === 'true';

/** "Get Started with Howdah" from the `…` menu of the chat view's title bar. */
async function openFromChatMenu(page) {
  await page.keyboard.press('Escape');
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Chat' }).first();
  const item = page.locator('.monaco-menu .action-label', { hasText: 'Get Started with Howdah' }).first();
  // The title bar's actions show on hover and the menu can close again as the view re-renders: open it until it holds.
  for (let attempt = 1; ; attempt++) {
    await header.hover();
    await header.locator('.action-label[aria-label^="More Actions"]').click();
    try {
      await item.click({ timeout: 10000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await step(page, 'chooseAgent').waitFor({ timeout: 30000 });
}

describe('the walkthrough (installed .vsix)', function () {
  this.timeout(240000);
  // No retry: what a first attempt did stays done (the marker of the first opening, the steps completed), as it does
  // for a user, so a retry could only fail on that and hide why the first attempt failed.
  this.retries(0);
  const shot = suiteScreenshots('walkthrough');
  useDefaultAgentForSuite('test-review-two-hunks');
  before(() => setUserSetting('workbench.welcomePage.walkthroughs.openOnInstall', true));
  after(() => setUserSetting('workbench.welcomePage.walkthroughs.openOnInstall', false));

  it('opens by itself once after install, and not on the next load', async () => {
    const { page } = e2e;
    await loadWorkbench();
    await openHowdahView(page);
    await step(page, 'chooseAgent').waitFor({ timeout: 60000 }).catch(() => { throw new Error('the walkthrough did not open after install'); });
    for (const id of STEPS) assert.equal(await stepDone(page, id), false, `${id} is not done yet`);
    assert.match(await page.locator('.part.editor').innerText(), /Get started with Howdah/);
    await shot('opened-after-install');

    await runCommand(page, 'View: Close All Editors');
    await until('the walkthrough to be closed', async () => (await step(page, 'chooseAgent').count()) === 0);
    // Reloaded as a user does: the window's shutdown writes its editors back (a page load right after the close
    // brought the closed walkthrough back as a restored editor).
    const reloaded = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 60000 });
    await runCommand(page, 'Developer: Reload Window').catch(() => { /* the page may go away before the palette closes */ });
    await reloaded;
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    await openHowdahView(page);
    // The view is shown, so Howdah has activated (it opens the walkthrough from activate); give the editor a moment.
    await page.waitForTimeout(3000);
    assert.equal(await step(page, 'chooseAgent').count(), 0, 'opened only once');
  });

  it('opens from the panel’s … menu, and its steps complete as the user does them', async () => {
    const { page } = e2e;
    const rel = 'walkthrough/thirty.txt';
    const file = writeWorkspaceFile(rel, ORIGINAL);

    await loadWorkbench();
    const wv = await openHowdahView(page);
    await openFromChatMenu(page);
    await shot('opened-from-menu');

    // Choose an agent and sign in: a session of the default agent is ready.
    await newSession(wv);
    await until('the agent and sign-in steps', async () => (await stepDone(page, 'chooseAgent')) && (await stepDone(page, 'signIn')));
    assert.equal(await stepDone(page, 'askForChange'), false);

    // Ask for a change: the agent rewrites the file, which waits in Agent Changes.
    await sendPrompt(wv, rel);
    await until('the agent to write the file', () => fs.readFileSync(file, 'utf8') !== ORIGINAL);
    await until('the ask-for-a-change step', () => stepDone(page, 'askForChange'));
    assert.equal(await stepDone(page, 'reviewHunks'), false);
    await shot('three-steps-done');

    // Review it hunk by hunk: accept the first hunk in the diff editor.
    const row = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: 'thirty.txt' });
    await row.first().click();
    const first = lensLine(page, '+2 −1');
    await first.waitFor({ timeout: 30000 });
    await lensAction(first, 'Accept').click();
    await until('the hunk to be accepted', async () => (await first.count()) === 0);
    await openFromChatMenu(page);
    await until('the review step', () => stepDone(page, 'reviewHunks'));
    assert.equal(await stepDone(page, 'undoCheckpoint'), false);

    // Undo with a checkpoint: restore the files to before the message.
    const message = wv.locator('.entry.user').last();
    await message.hover();
    await message.getByRole('button', { name: 'Restore files to before this message', exact: true }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Restore 1 file to before this message?' });
    await dialog.waitFor({ timeout: 15000 });
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await until('the file to be restored', () => fs.readFileSync(file, 'utf8') === ORIGINAL);
    await openFromChatMenu(page);
    await until('the checkpoint step', () => stepDone(page, 'undoCheckpoint'));
    for (const id of STEPS) assert.equal(await stepDone(page, id), true, `${id} is done`);
    await shot('all-steps-done');

    // Leave nothing for the suites after this one: the restore left the file differing from the accepted hunk.
    await runCommand(page, 'Howdah: Accept All Changes');
    await until('nothing left to review', async () => (await row.count()) === 0);
    await runCommand(page, 'View: Close All Editors');
    await closeAllSessions(page, wv);
  });
});
