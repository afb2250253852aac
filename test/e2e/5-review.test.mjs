// Issue 5: reviewing an agent's edit hunk by hunk in VS Code's own diff editor. The agent (scenario
// test/integration/scenarios/review-two-hunks.json) rewrites a 30-line file in two separated places through
// fs/write_text_file; the file shows in the Agent Changes view; its row opens the review; the first hunk's CodeLens
// "Accept" and the second's "Reject" leave on disk exactly the agent's first change and the original second place.
// And a pending change outlives a window reload: still listed afterwards, and Reject restores the original bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { agentChangesPane, lensAction, lensLine, openHowdahView, runCommand } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

// A file of its own per attempt: a retry must not meet the review the failed attempt left behind.
let attempts = 0;
const lines = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}: as it was\n`);
const ORIGINAL = lines.join('');
/** What the scenario writes: line 2 becomes two lines, line 20 is rewritten. */
const AGENT = lines.map((l, i) => i === 1 ? 'line 02: changed by the agent\nline 02b: added by the agent\n' : i === 19 ? 'line 20: changed by the agent\n' : l).join('');
/** The first hunk accepted, the second rejected. */
const EXPECTED = lines.map((l, i) => i === 1 ? 'line 02: changed by the agent\nline 02b: added by the agent\n' : l).join('');

describe('reviewing an agent edit hunk by hunk (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('review');
  useDefaultAgentForSuite('test-review-two-hunks');

  it('accepts one hunk and rejects the other through the diff editor CodeLens; the file on disk is the mix', async () => {
    const { page } = e2e;
    const name = `thirty-${++attempts}.txt`;
    const REL = `review/${name}`;
    const file = path.join(e2e.workspace, REL);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, ORIGINAL);

    await loadWorkbench();
    const wv = await openHowdahView(page);
    await newSession(wv);
    await sendPrompt(wv, REL);
    await until('the agent to write the file', () => fs.readFileSync(file, 'utf8') === AGENT);
    await wv.getByText('Done: two changes to review.').first().waitFor({ timeout: 30000 });
    await shot('agent-wrote');

    const pane = await agentChangesPane(page);
    const row = pane.locator('.monaco-list-row', { hasText: name });
    await row.first().waitFor({ timeout: 30000 });
    assert.match(await row.first().innerText(), /\+3\s*−2/, 'the row counts both hunks');
    await shot('agent-changes-listed');

    await row.first().click();
    await page.locator('.monaco-diff-editor .line-insert').first().waitFor({ timeout: 30000 });
    assert.match(await page.locator('.tabs-container .tab.active').innerText(), new RegExp(name.replace('.', '\\.')));
    const first = lensLine(page, '+2 −1');
    const second = lensLine(page, '+1 −1');
    await first.waitFor({ timeout: 30000 });
    await second.waitFor({ timeout: 30000 });
    await shot('review-open');

    // Accept the first hunk: its text becomes the baseline (nothing is written), its lens goes; the second stays.
    await lensAction(first, 'Accept').click();
    await until('the first hunk to be accepted', async () => (await first.count()) === 0 && (await second.count()) === 1);
    assert.equal(fs.readFileSync(file, 'utf8'), AGENT, 'accepting writes nothing');
    await until('the row to count only the second hunk', async () => /\+1\s*−1/.test(await row.first().innerText().catch(() => '')));
    await shot('first-accepted');

    // Reject the second: the original line 20 comes back, and nothing is left to review in the file.
    await lensAction(second, 'Reject').click();
    await until('the second hunk to be rejected', () => fs.readFileSync(file, 'utf8') === EXPECTED);
    await until('the file to leave the Agent Changes view', async () => (await row.count()) === 0);
    await until('the lenses to go', async () => (await page.locator('.monaco-diff-editor .codelens-decoration', { hasText: 'Agent change' }).count()) === 0);
    await shot('second-rejected');

    assert.equal(fs.readFileSync(file).toString('utf8'), EXPECTED, 'on disk: the accepted hunk, the original second place, the rest unchanged');
    assert.equal(await page.locator('.tabs-container .tab.active.dirty').count(), 0, 'the reviewed file is saved');
  });

  it('a pending change survives a window reload, and Reject then restores the original bytes', async () => {
    const { page } = e2e;
    const name = `reload-${++attempts}.txt`;
    const file = path.join(e2e.workspace, 'review', name);
    // A BOM and CRLF line ends: the agent's text is written in the file's format, the reject must bring back the bytes.
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ORIGINAL.replace(/\n/g, '\r\n'))]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, original);

    await loadWorkbench();
    const wv = await openHowdahView(page);
    await newSession(wv);
    await sendPrompt(wv, `review/${name}`);
    await until('the agent to write the file', () => fs.readFileSync(file, 'utf8').includes('changed by the agent'));
    assert.equal(fs.readFileSync(file, 'utf8'), `\ufeff${AGENT.replace(/\n/g, '\r\n')}`, "the agent's text in the file's format");
    const row = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: name });
    await row.first().waitFor({ timeout: 30000 });
    await shot('reload-pending');

    const reloaded = page.waitForEvent('framenavigated', { predicate: f => f === page.mainFrame(), timeout: 60000 });
    await runCommand(page, 'Developer: Reload Window').catch(() => { /* the page may go away before the palette closes */ });
    await reloaded;
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    const restored = await openHowdahView(page);
    // Two conversations were open (the test above left its own): the one in front before the reload is in front
    // again, with its whole transcript.
    await restored.getByRole('region', { name: 'Conversation' }).getByText(`Changing two places in review/${name}`).waitFor({ timeout: 30000 });
    const after = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: name });
    await after.first().waitFor({ timeout: 60000 });
    assert.match(await after.first().innerText(), /\+3\s*−2/, 'still listed after the reload, with its counts');
    await shot('reload-still-pending');

    await after.first().hover();
    await after.first().locator('.action-label[aria-label^="Reject File Changes"]').click();
    await until('the original bytes to be back', () => Buffer.compare(fs.readFileSync(file), original) === 0);
    await until('the file to leave the Agent Changes view', async () => (await after.count()) === 0);
    await shot('reload-rejected');
    assert.deepEqual(fs.readFileSync(file), original, 'byte for byte the file as it was before the agent');
  });
});
