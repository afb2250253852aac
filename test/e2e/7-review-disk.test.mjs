// Issue 12: an agent that writes a file itself (its own Node, no fs/write_text_file) — a UTF-8 file with a BOM and
// CRLF line ends — and reports a whole-file diff that keeps U+FEFF with LF ends (scenario
// test/integration/scenarios/review-bom-disk.json). The change is in Agent Changes with its one changed line; the
// diff editor's Reject File button (its title bar) puts back the original bytes exactly, BOM and CRLF included.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { agentChangesPane, lensLine, openHowdahView } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots, writeWorkspaceFile } from './context.mjs';

let attempts = 0;

describe('reviewing a disk write the agent made itself (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('review-disk');
  useDefaultAgentForSuite('test-review-bom-disk');

  it('a BOM + CRLF file rewritten by the agent: rejected from the native diff editor, its exact bytes come back', async () => {
    const { page } = e2e;
    const name = `bom-crlf-${++attempts}.txt`;
    const rel = `review/${name}`;
    const original = Buffer.from('\ufeffline one\r\nline two\r\nline three\r\n');
    const file = writeWorkspaceFile(rel, original);

    await loadWorkbench();
    const wv = await openHowdahView(page);
    await newSession(wv);
    await sendPrompt(wv, rel);
    await wv.getByText(`Rewrote line two of ${rel} myself.`).first().waitFor({ timeout: 30000 });
    assert.ok(fs.readFileSync(file, 'utf8').includes('line TWO, by the agent'), 'the agent wrote the file');

    const row = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: name });
    await row.first().waitFor({ timeout: 30000 });
    assert.match(await row.first().innerText(), /\+1\s*−1/, 'one line changed, not every line (BOM and line ends ignored)');
    await shot('listed');

    await row.first().click();
    const lens = lensLine(page, '+1 −1');
    await lens.waitFor({ timeout: 30000 });
    await shot('review-open');
    // The diff editor's title-bar button (a remote window: shown only when the context key matches vscode-remote URIs).
    const reject = page.locator('.part.editor .editor-group-container.active .title .editor-actions .action-label[aria-label*="Reject File Changes"]').first();
    await reject.waitFor({ timeout: 30000 });
    await reject.click();
    await until('the original bytes to be back', () => Buffer.compare(fs.readFileSync(file), original) === 0);
    await until('the file to leave the Agent Changes view', async () => (await row.count()) === 0);
    await shot('rejected');
    assert.deepEqual([...fs.readFileSync(file).subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM is back');
    assert.equal(await page.locator('.tabs-container .tab.active.dirty').count(), 0, 'nothing left unsaved');
  });
});
