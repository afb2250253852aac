// Review rounds in the real workbench: the agent (test/integration/scenarios/review-round.json) changes a 30-line file
// in two places; a comment is written on one of its lines in the native diff editor (Comments API) and sent with the
// comment box's "Add and Send to Agent"; the agent gets one prompt with the file as a resource_link, the quoted line
// and the comment, and the thread says it was sent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { newSession, sendPrompt } from '../harness/panel.mjs';
import { agentChangesPane, openHowdahView, runCommand } from '../harness/workbench.mjs';
import { until, useDefaultAgentForSuite } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots, writeWorkspaceFile } from './context.mjs';

const lines = Array.from({ length: 30 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}: as it was\n`).join('');

/** The prompts the fake agents received so far. */
function prompts() {
  if (!fs.existsSync(e2e.agentLog)) return [];
  return fs.readFileSync(e2e.agentLog, 'utf8').split('\n').filter(Boolean)
    .map(line => { try { return JSON.parse(line); } catch { return {}; } })
    .filter(e => e.dir === 'in' && e.msg?.method === 'session/prompt').map(e => e.msg.params.prompt);
}

describe('review comments from the native diff editor (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('review-comments');
  useDefaultAgentForSuite('test-review-round');

  it('a comment on a changed line, written in the diff editor and sent, reaches the agent with its file and line', async () => {
    const { page } = e2e;
    const REL = 'review/commented.txt';
    const file = writeWorkspaceFile(REL, lines);

    await loadWorkbench();
    const wv = await openHowdahView(page);
    await newSession(wv);
    await sendPrompt(wv, REL);
    await wv.getByText('Done: two changes to review.').first().waitFor({ timeout: 30000 });
    const row = (await agentChangesPane(page)).locator('.monaco-list-row', { hasText: 'commented.txt' });
    await row.first().waitFor({ timeout: 30000 });
    await row.first().click();
    const changed = page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'line 20: changed by the agent' });
    await changed.waitFor({ timeout: 30000 });

    // The caret on the changed line, then VS Code's own "Add Comment on Current Selection".
    await changed.click();
    await runCommand(page, 'Add Comment on Current Selection');
    const widget = page.locator('.review-widget').last();
    await widget.waitFor({ timeout: 15000 });
    await page.keyboard.type('Give this line a better name.');
    await shot('comment-typed');
    const before = prompts().length;
    await widget.getByRole('button', { name: 'Add and Send to Agent' }).click();

    await until('the review prompt', () => prompts().length === before + 1, 30000);
    const prompt = prompts().at(-1);
    assert.deepEqual(prompt.map(b => b.type), ['text', 'resource_link', 'text']);
    assert.equal(prompt[1].uri, `file://${file}`);
    assert.equal(prompt[1].title, `${REL}, line 21`);
    assert.match(prompt[2].text, /^Comment 1 of 1, on review\/commented\.txt line 21:\n```\nline 20: changed by the agent\n```\nGive this line a better name\.$/);
    await widget.getByText('Sent to', { exact: false }).first().waitFor({ timeout: 15000 });
    await shot('comment-sent');

    // What the agent changed in answer is its own diff: the round's.
    await until('the agent’s answer', () => fs.existsSync(path.join(e2e.workspace, 'review-round.txt')), 30000);
    await runCommand(page, 'Howdah: Accept All Changes');
  });
});
