// Issue 6: a command the agent runs through terminal/create shows in VS Code's terminal panel, in a terminal named
// after the command with its output and exit status, and the chat's tool card shows the output and the exit code.
// The agent (scenario test/integration/scenarios/terminal-exit-code.json) runs node -e 'console.log(6*7); process.exit(3)'.
import assert from 'node:assert/strict';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { openHowdahView } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

const COMMAND_LINE = "node -e 'console.log(6*7); process.exit(3)'";

describe('a command the agent runs (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('terminal');
  useDefaultAgentForSuite('test-terminal-exit-code');

  it('shows in a terminal named after it, and its exit code in the chat card', async () => {
    const { page } = e2e;
    await loadWorkbench();
    const wv = await openHowdahView(page);
    await newSession(wv);
    await sendPrompt(wv, 'run it');
    await wv.getByText('The command ended with exit code 3.').first().waitFor({ timeout: 60000 });
    await shot('turn-finished');

    // The terminal panel: a terminal named after the command, with its output and how it ended.
    const panel = page.locator('.part.panel');
    const tab = panel.locator('.single-terminal-tab, .terminal-tabs-entry', { hasText: COMMAND_LINE });
    await tab.first().waitFor({ timeout: 30000 });
    // Other suites may leave a shell terminal in front: with several terminals, bring the command's own forward from
    // the tabs list before reading it. Not the lone terminal's tab: it is in front already, and a click on it can open
    // its menu, which then covers the panel (seen in CI: the panel's close button could not be clicked).
    const entry = panel.locator('.terminal-tabs-entry', { hasText: COMMAND_LINE });
    if ((await entry.count()) > 0) await entry.first().click({ timeout: 5000 }).catch(() => {});
    const rows = panel.locator('.terminal-wrapper.active .xterm-rows');
    await until('the terminal to show the output and the exit', async () => {
      const lines = (await rows.innerText().catch(() => '')).split('\n').map(l => l.trim());
      return lines.includes('42') && lines.includes('[exited with code 3]');
    });
    assert.ok((await rows.innerText()).includes(`$ ${COMMAND_LINE}`), 'the terminal starts with the command line');
    await shot('terminal-panel');

    // The chat: one output section on the card, with the output and the exit code.
    const card = wv.getByRole('article', { name: 'Tool call: Compute and fail' });
    assert.equal((await card.locator('.tool-command').innerText()).replace(/\s+/g, ' ').trim(), `$ ${COMMAND_LINE}`, 'the card shows the whole command');
    assert.equal(await card.locator('.terminal').count(), 1, 'the command output is shown once');
    assert.equal((await card.locator('.terminal-exit').innerText()).trim(), 'exit code 3');
    assert.match(await card.locator('.terminal-exit').getAttribute('class'), /\bfailed\b/);
    assert.equal((await card.locator('.terminal-output').innerText()).trim(), '42');

    // "Open in terminal" brings the terminal back after the panel was closed.
    await panel.locator('.action-label.codicon-panel-close').click();
    await panel.waitFor({ state: 'hidden', timeout: 10000 });
    await card.getByRole('button', { name: 'Open in terminal' }).click();
    await tab.first().waitFor({ timeout: 30000 });
    assert.ok((await rows.innerText()).includes('[exited with code 3]'));
    assert.equal(await tab.count(), 1, 'the same terminal, not a second one');
    await shot('opened-again');
  });
});
