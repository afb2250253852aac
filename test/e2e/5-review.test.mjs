// Issue 5: reviewing an agent's edit hunk by hunk in VS Code's own diff editor. The agent (scenario
// test/integration/scenarios/review-two-hunks.json) rewrites a 30-line file in two separated places through
// fs/write_text_file; the file shows in the Agent Changes view; its row opens the review; the first hunk's CodeLens
// "Accept" and the second's "Reject" leave on disk exactly the agent's first change and the original second place.
// And a pending change outlives a window reload: still listed afterwards, and Reject restores the original bytes. So does
// a held write (the agent's write over a buffer with unsaved changes of the user's): proposed again after the reload,
// the user's unsaved text still in the buffer (hot exit), the disk untouched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { agentChangesPane, lensAction, lensLine, openHowdahView, openPalette, runCommand } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, hotExitBackups, loadWorkbench, suiteScreenshots, writeWorkspaceFile } from './context.mjs';

/** Quick Open (the palette without `>`): opens the workspace file `rel` in an editor, the active one. */
async function openFile(page, rel) {
  const input = await openPalette(page);
  await input.fill(rel);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: path.basename(rel) }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
  await page.locator('.tabs-container .tab.active', { hasText: path.basename(rel) }).first().waitFor({ timeout: 10000 });
}

/** The lines the active editor group's text editor shows. */
const activeEditorLines = (page) => page.locator('.part.editor .editor-group-container.active .editor-container .monaco-editor .view-lines').first();
/** Their text, spaces as typed (the editor renders them as no-break spaces). */
const shownText = (lines) => lines.innerText().then((t) => t.replace(/\u00a0/g, ' '), () => '');

/** An editor-title button of the active editor group (the diff editor of a review), by its command's title. */
const titleButton = (page, title) => page.locator(`.part.editor .editor-group-container.active .title .editor-actions .action-label[aria-label*="${title}"]`).first();
/** The line of the cursor, as the status bar shows it ("Ln 21, Col 1"). */
async function cursorLine(page) {
  const text = await page.locator('.part.statusbar .statusbar-item', { hasText: /^\s*Ln \d+, Col \d+/ }).first().innerText().catch(() => '');
  return Number(/Ln (\d+)/.exec(text)?.[1] ?? NaN);
}

// A file of its own per attempt: a retry must not meet the review the failed attempt left behind.
let attempts = 0;
const lines = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}: as it was\n`);
const ORIGINAL = lines.join('');
/** What the scenario writes: line 2 becomes two lines, line 20 is rewritten. */
const AGENT = lines.map((l, i) => i === 1 ? 'line 02: changed by the agent\nline 02b: added by the agent\n' : i === 19 ? 'line 20: changed by the agent\n' : l).join('');
/** The first hunk accepted, the second rejected. */
const EXPECTED = lines.map((l, i) => i === 1 ? 'line 02: changed by the agent\nline 02b: added by the agent\n' : l).join('');

/**
 * Puts `content` in review/<prefix>-<attempt>.txt, asks the agent (the scenario) to edit it in a new session, and waits
 * until the agent's text is on disk (`written`). Returns the file's name, path and the chat view.
 */
async function agentEdits(prefix, content = ORIGINAL, written = (text) => text === AGENT) {
  const name = `${prefix}-${++attempts}.txt`;
  const file = writeWorkspaceFile(`review/${name}`, content);
  await loadWorkbench();
  const wv = await openHowdahView(e2e.page);
  await newSession(wv);
  await sendPrompt(wv, `review/${name}`);
  await until('the agent to write the file', () => written(fs.readFileSync(file, 'utf8')));
  return { name, file, wv };
}

describe('reviewing an agent edit hunk by hunk (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('review');
  useDefaultAgentForSuite('test-review-two-hunks');

  it('accepts one hunk and rejects the other through the diff editor CodeLens; the file on disk is the mix', async () => {
    const { page } = e2e;
    const { name, file, wv } = await agentEdits('thirty');
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

  // A remote window (code-server is one): the UI sees the file as vscode-remote://…, the extension host as file:. The
  // title-bar buttons and the palette's cursor commands show only when `resource in howdah.reviewedResources` holds there.
  it('reviews through the editor-title buttons and the palette: next and previous change, accept and reject at the cursor, accept the file', async () => {
    const { page } = e2e;
    const { name, file, wv } = await agentEdits('buttons');
    const pane = await agentChangesPane(page);
    const row = pane.locator('.monaco-list-row', { hasText: name });
    await row.first().click();
    const first = lensLine(page, '+2 −1');
    const second = lensLine(page, '+1 −1');
    await first.waitFor({ timeout: 30000 });
    await second.waitFor({ timeout: 30000 });

    for (const title of ['Previous Agent Change', 'Next Agent Change', 'Accept File Changes', 'Reject File Changes']) {
      await titleButton(page, title).waitFor({ timeout: 30000 }).catch(() => { throw new Error(`no "${title}" button in the diff editor's title bar`); });
    }
    await shot('title-buttons');

    // The review opens at the first change (line 2); Next goes to the second (line 20 of the original, now 21).
    await until('the cursor at the first change', async () => (await cursorLine(page)) === 2);
    await titleButton(page, 'Next Agent Change').click();
    await until('the cursor at the second change', async () => (await cursorLine(page)) === 21);
    await titleButton(page, 'Previous Agent Change').click();
    await until('the cursor back at the first change', async () => (await cursorLine(page)) === 2);

    // The cursor commands, from the palette: accept the first change, then reject the second.
    await runCommand(page, 'Howdah: Accept Change at Cursor');
    await until('the first change to be accepted', async () => (await first.count()) === 0 && (await second.count()) === 1);
    assert.equal(fs.readFileSync(file, 'utf8'), AGENT, 'accepting writes nothing');
    await titleButton(page, 'Next Agent Change').click();
    await until('the cursor at the second change', async () => (await cursorLine(page)) === 21);
    await runCommand(page, 'Howdah: Reject Change at Cursor');
    await until('the second change to be rejected', () => fs.readFileSync(file, 'utf8') === EXPECTED);
    await until('the file to leave the Agent Changes view', async () => (await row.count()) === 0);
    await shot('cursor-commands-done');

    // Accept File Changes from the title bar, on the agent's next change to another file: kept as the agent wrote it.
    const other = `buttons-accept-${attempts}.txt`;
    const otherFile = path.join(e2e.workspace, 'review', other);
    fs.writeFileSync(otherFile, ORIGINAL);
    await sendPrompt(wv, `review/${other}`);
    await until('the agent to write the other file', () => fs.readFileSync(otherFile, 'utf8') === AGENT);
    const otherRow = pane.locator('.monaco-list-row', { hasText: other });
    await otherRow.first().click();
    await lensLine(page, '+2 −1').waitFor({ timeout: 30000 });
    await titleButton(page, 'Accept File Changes').click();
    await until('the other file to leave the Agent Changes view', async () => (await otherRow.count()) === 0);
    await until('the buttons to go from the title bar', async () => (await titleButton(page, 'Accept File Changes').count()) === 0);
    assert.equal(fs.readFileSync(otherFile, 'utf8'), AGENT, 'accepting the file keeps what the agent wrote');
  });

  it('a pending change survives a window reload, and Reject then restores the original bytes', async () => {
    const { page } = e2e;
    // A BOM and CRLF line ends: the agent's text is written in the file's format, the reject must bring back the bytes.
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ORIGINAL.replace(/\n/g, '\r\n'))]);
    const { name, file } = await agentEdits('reload', original, (text) => text.includes('changed by the agent'));
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

  it('a write held over unsaved changes of the user survives a window reload: proposed again, the buffer and the disk untouched', async () => {
    const { page } = e2e;
    const name = `held-${++attempts}.txt`;
    const REL = `review/${name}`;
    const file = writeWorkspaceFile(REL, ORIGINAL);
    const NOTE = 'my unsaved note';
    const dirtyTab = page.locator('.tabs-container .tab.dirty', { hasText: name });

    await loadWorkbench();
    const wv = await openHowdahView(page);
    // The user's own line at the top of the file, not saved: the tab is dirty.
    await openFile(page, REL);
    const editor = activeEditorLines(page);
    await until('the file to show in its editor', async () => (await shownText(editor)).includes('line 01: as it was'));
    await editor.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type(`${NOTE}\n`);
    await dirtyTab.first().waitFor({ timeout: 10000 });
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'the note is not saved');
    await shot('held-unsaved-note');

    // The agent writes the file through fs/write_text_file: held as a proposal, listed, nothing written.
    await newSession(wv);
    await sendPrompt(wv, REL);
    // The agent has not read a file through Howdah yet: Howdah says the file is unsaved before the prompt goes.
    const notice = wv.getByRole('region', { name: 'Unsaved files', exact: true });
    await notice.waitFor({ timeout: 15000 });
    assert.match(await notice.innerText(), new RegExp(`1 unsaved file — the agent reads files from disk[\\s\\S]*${name.replace('.', '\\.')}`));
    await shot('held-unsaved-notice');
    await notice.getByRole('button', { name: 'Send anyway' }).click();
    await wv.getByText('Done: two changes to review.').first().waitFor({ timeout: 30000 });
    const row = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: name });
    await row.first().waitFor({ timeout: 30000 });
    assert.match(await row.first().innerText(), /\+3\s*−3/, "the agent's two changes, and the user's note its text lacks");
    await shot('held-listed');
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'the held write did not touch the disk');
    assert.ok((await dirtyTab.count()) > 0, "the user's buffer is still unsaved");
    // The reload brings the note back from its hot-exit backup, written a second after the last edit.
    await until('hot exit to back the unsaved note up', () => hotExitBackups().length > 0);

    const reloaded = page.waitForEvent('framenavigated', { predicate: f => f === page.mainFrame(), timeout: 60000 });
    await runCommand(page, 'Developer: Reload Window').catch(() => { /* the page may go away before the palette closes */ });
    await reloaded;
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    await openHowdahView(page);
    const after = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: name });
    await after.first().waitFor({ timeout: 60000 }).catch(() => { throw new Error('the held write is not listed again after the reload'); });
    await shot('held-listed-after-reload');

    // Hot exit brought the user's buffer back, still unsaved; the disk is as it was.
    await openFile(page, REL);
    await until("the user's unsaved note to be back in the editor", async () => (await shownText(activeEditorLines(page))).includes(NOTE));
    assert.ok((await dirtyTab.count()) > 0, 'the buffer is still unsaved after the reload');
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'the disk still holds the original');
    await shot('held-buffer-after-reload');

    // Leave nothing behind for the suites after this one: reject the held write (nothing is written), revert the buffer.
    await after.first().hover();
    await after.first().locator('.action-label[aria-label^="Reject File Changes"]').click();
    await until('the held write to leave the Agent Changes view', async () => (await after.count()) === 0);
    assert.equal(fs.readFileSync(file, 'utf8'), ORIGINAL, 'rejecting a held write writes nothing');
    await openFile(page, REL);
    await runCommand(page, 'File: Revert File');
    await until('the buffer to be reverted', async () => (await dirtyTab.count()) === 0);
    // Its backup goes a moment later, and a backup VS Code had scheduled (a second after the last edit) may still land:
    // a window loaded with one left (the next suite's) would bring the note back unsaved and hold every prompt there.
    await until('the unsaved note’s backup to be gone', () => hotExitBackups().length === 0);
    await page.waitForTimeout(1500);
    await until('the unsaved note’s backup to stay gone', () => hotExitBackups().length === 0);
  });
});
