import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor, workspaceFolder } from './helpers';

// Review rounds: comments on the lines of an agent change go back to the agent as one prompt; the next round's diff
// shows what the agent changed since. `review-round` changes a 30-line file in two places, echoes the next prompt
// block by block, then changes line 20 once more.

const lines = (n: number, tag = 'as it was') => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(2, '0')}: ${tag}`).join('\n') + '\n';

describe('review comments sent back to the agent', function () {
  this.timeout(60000);

  it('comments on two hunks go as one prompt with each file, line range, quoted lines and comment; the round diff shows the agent’s answer only', async () => {
    const api = await howdah();
    const file = path.join(workspaceFolder().fsPath, 'review-round.txt');
    fs.writeFileSync(file, lines(30));
    const key = await api.newSession(await registerAgent('review', 'test:review-round', {}, 'Fake Reviewer'));
    api.setActive(key);
    assert.equal(await api.prompt(key, 'review-round.txt'), 'end_turn');
    const written = fs.readFileSync(file, 'utf8');
    assert.match(written, /line 02b: added by the agent/);

    assert.equal(await api.sendReviewComments(), false, 'nothing to send yet');
    api.reviewComment(file, 1, 2, 'Why two lines here?');
    api.reviewComment(file, 20, 20, 'Name this **better**.');
    assert.deepEqual(api.reviewThreads().map((t) => t.notes.map((n) => n.sentTo ?? 'unsent')), [['unsent'], ['unsent']]);

    const answers = agentText(api.snapshot(key)).length;
    assert.equal(await api.sendReviewComments(), true);
    await waitFor('the review to be answered', () => {
      const s = api.snapshot(key) as { turn: string };
      return s.turn === 'idle' && agentText(api.snapshot(key)).length > answers;
    }, 20000);
    const heard = agentText(api.snapshot(key)).slice(answers);
    const uri = vscode.Uri.file(file).toString();
    assert.match(heard, /^Received 5 prompt block\(s\):/, 'an instruction, then a link and a text per comment: one prompt');
    assert.match(heard, /- text: "Review of your changes: 2 comments on 1 file\./);
    const links = [...heard.matchAll(/- resource_link: (\S+) \(([^)]*)\)/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(links, [[uri, 'review-round.txt'], [uri, 'review-round.txt']]);
    assert.match(heard, /Comment 1 of 2, on review-round.txt lines 2–3:\\n```\\nline 02: changed by the agent\\nline 02b: added by the agent\\n```\\nWhy two lines here\?/);
    assert.match(heard, /Comment 2 of 2, on review-round.txt line 21:\\n```\\nline 20: changed by the agent\\n```\\nName this \*\*better\*\*\./);
    assert.deepEqual(api.reviewThreads().map((t) => t.notes.map((n) => n.sentTo)), [['Fake Reviewer'], ['Fake Reviewer']], 'marked as sent');
    assert.equal(await api.sendReviewComments(), false, 'sent comments do not go twice');

    // The round: its start is the file as the comments saw it; the agent's answer changed line 20 only.
    await waitFor('the agent’s answer on disk', () => fs.readFileSync(file, 'utf8').includes('changed again, after the review'));
    const roundStart = await vscode.workspace.openTextDocument(vscode.Uri.file(file).with({ scheme: 'howdah-round', query: 'test' }));
    assert.equal(roundStart.getText(), written, 'the round starts from the text the comments were made on');
    await vscode.commands.executeCommand('howdah.openChangesSinceReview', vscode.Uri.file(file));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.match(tab?.label ?? '', /^review-round\.txt \(Since your review at /);
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff && tab.input.original.scheme === 'howdah-round' && tab.input.modified.fsPath === file);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    await waitFor('the round to end with the review', async () => {
      await vscode.commands.executeCommand('howdah.openChangesSinceReview', vscode.Uri.file(file));
      return !(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '').includes('Since your review');
    });
    fs.rmSync(file, { force: true });
  });
});
