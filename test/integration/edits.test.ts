import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { computeHunks, splitLines } from '../../src/edits/hunks';
import { agentText, howdah, waitFor, waitSeen, workspaceFolder } from './helpers';
import { registerAgent } from './agentSetup';

// Agents for these tests are registered here, each running a scenario of test/integration/scenarios/ with its own
// environment: `edits-write` writes the prompt's text to $EDITS_TARGET through fs/write_text_file; `edits-disk`
// announces an edit of $EDITS_TARGET and waits on a permission prompt while the test changes the file on disk, as
// Claude Code or Codex do, then reports a diff.

interface EditsState {
  pending: { fsPath: string; uri: string; kind: string; added: number; removed: number }[];
  proposals: { path: string; mode: string; text: string; uri: string }[];
  asked: { message: string; detail?: string; answer?: string }[];
}

const state = async () => (await vscode.commands.executeCommand('howdah.edits.test.state')) as EditsState;
const pendingFor = async (file: string) => (await state()).pending.find((p) => p.fsPath === file);
const ws = (rel: string) => path.join(workspaceFolder().fsPath, rel);

/** Waits until the file's review is over (a timeout says what was still listed and what the tracker saw). */
const reviewOver = (file: string, what = 'nothing left to review') => waitSeen(what, async () => !(await pendingFor(file)));

/** A fake agent running test/integration/scenarios/<scenario>.json with `env`; resolves to its id. */
const agent = (scenario: string, env: Record<string, string>) => registerAgent('edits', `test:${scenario}`, env);

/**
 * Runs one turn of a scenario that asks before its edit (`edits-disk`, tool call `tc-disk`, by default): when the
 * permission prompt is up, `change` touches the disk (the agent's own write), then allow. Resolves to the session key.
 */
async function diskTurn(env: Record<string, string>, change: () => void, { scenario = 'edits-disk', toolCallId = 'tc-disk', settle = 300 } = {}): Promise<string> {
  const api = await howdah();
  const key = await api.newSession(await agent(scenario, env));
  const turn = api.prompt(key, 'edit it');
  await waitFor('the permission prompt', () => {
    const calls = (api.snapshot(key) as { toolCalls: Record<string, { permission?: unknown }> }).toolCalls;
    return calls[toolCallId]?.permission;
  });
  change();
  if (settle > 0) await new Promise((r) => setTimeout(r, settle));
  assert.ok(api.answerPermission(key, toolCallId, 'allow-once'));
  assert.equal(await turn, 'end_turn');
  return key;
}

/** `edits-disk-then-write` (OpenCode's way): the agent writes the disk itself, then sends fs/write_text_file too. */
const diskThenWriteTurn = (env: Record<string, string>, change: () => void) => diskTurn(env, change, { scenario: 'edits-disk-then-write', toolCallId: 'tc-both', settle: 0 });

describe('agent edits: applied, then reviewed', function () {
  this.timeout(60000);

  afterEach(async () => {
    await vscode.commands.executeCommand('howdah.acceptAllChanges');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await howdah()).stopAll();
  });

  it('a write through fs/write_text_file is pending; rejecting restores CRLF, BOM and no final newline byte for byte', async () => {
    const file = ws('crlf-bom.txt');
    const original = fs.readFileSync(file);
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'crlf-bom.txt' }));
    await api.prompt(key, 'line one\nline TWO, changed by the agent\nline three (no final newline)');
    assert.equal(agentText(api.snapshot(key)), 'write: ', 'the write succeeded');
    const written = fs.readFileSync(file);
    assert.deepEqual([...written.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM is kept');
    assert.ok(written.toString('utf8').includes('changed by the agent\r\n'), 'the agent text took the file line endings');
    const change = await waitFor('the pending change', () => pendingFor(file));
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);

    // What a window reload would find: the review and its baseline's exact bytes, in the extension's storage.
    const stateFile = (await vscode.commands.executeCommand('howdah.edits.test.save')) as string;
    assert.ok(!stateFile.startsWith(workspaceFolder().fsPath), 'kept outside the workspace');
    const saved = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { reviews: { path: string; baseline: string }[] };
    const ref = saved.reviews.find((r) => r.path === file)!.baseline;
    assert.deepEqual(fs.readFileSync(path.join(path.dirname(stateFile), 'blobs', ref.slice(0, 2), ref.slice(2))), original);

    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
    await waitFor('the exact original bytes', () => Buffer.compare(fs.readFileSync(file), original) === 0);
    await reviewOver(file, 'the change to leave the list');
  });

  it('an agent write over a document with unsaved changes is held, never saved over them', async () => {
    const file = ws('notes.md');
    const onDisk = fs.readFileSync(file, 'utf8');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'UNSAVED USER LINE\n'));
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'notes.md' }));
    await api.prompt(key, 'the agent replaced everything\n');
    assert.equal(fs.readFileSync(file, 'utf8'), onDisk, 'nothing was saved');
    assert.ok(editor.document.getText().startsWith('UNSAVED USER LINE\n'), 'the user text is still in the buffer');
    assert.ok(editor.document.isDirty);
    const proposal = await waitFor('the held proposal', async () => (await state()).proposals.find((p) => p.path === file));
    assert.equal(proposal.mode, 'held');
    await waitFor('the proposal listed with the pending changes', async () => (await state()).pending.some((p) => p.uri === proposal.uri));

    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.parse(proposal.uri));
    await waitFor('the proposal to go', async () => !(await state()).proposals.some((p) => p.path === file));
    assert.ok(editor.document.getText().startsWith('UNSAVED USER LINE\n'));
    assert.equal(fs.readFileSync(file, 'utf8'), onDisk);
  });

  it('an agent that writes to disk itself: pending from the watcher and its diff; hunks accepted and rejected one by one', async () => {
    const file = ws('src/a.ts');
    const before = fs.readFileSync(file, 'utf8');
    const lines = splitLines(before);
    const after = ['// header added by the agent\n', ...lines.slice(0, -1), lines[lines.length - 1], '// footer added by the agent\n'].join('');
    await diskTurn({ EDITS_TARGET: 'src/a.ts', EDITS_OLD: before, EDITS_NEW: after, EDITS_DIFF_WHOLE: '1' }, () => fs.writeFileSync(file, after));
    // The watcher's event can come late on a loaded machine (CI missed it within 10 s once); the turn's end catches it too.
    const change = await waitFor('the pending change', () => pendingFor(file), 30000);
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 2, 0]);

    const hunks = computeHunks(splitLines(before), splitLines(after));
    assert.equal(hunks.length, 2);
    assert.equal(await vscode.commands.executeCommand('howdah.acceptHunk', vscode.Uri.file(file).toString(), hunks[0]), true);
    const rest = computeHunks(splitLines(['// header added by the agent\n', before].join('')), splitLines(after));
    assert.equal(await vscode.commands.executeCommand('howdah.rejectHunk', vscode.Uri.file(file).toString(), rest[0]), true);
    await waitFor('the header kept, the footer gone', () => fs.readFileSync(file, 'utf8') === `// header added by the agent\n${before}`);
    await reviewOver(file);
  });

  it("a hunk's Reject lens clicked before VS Code refreshed it after the Accept above: it still rejects its own hunk", async () => {
    const file = ws('stale-lens.txt');
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`);
    fs.writeFileSync(file, lines.join(''));
    const written = lines.map((l, i) => (i === 1 ? 'line 2 changed\nline 2b added\n' : i === 19 ? 'line 20 changed\n' : l)).join('');
    const api = await howdah();
    await api.prompt(await api.newSession(await agent('edits-write', { EDITS_TARGET: 'stale-lens.txt' })), written);
    await waitFor('the pending change', () => pendingFor(file));
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', vscode.Uri.file(file))) as vscode.CodeLens[];
    const lens = (title: string, n: number) => lenses.filter((l) => l.command?.title.includes(title))[n].command!;
    const [acceptFirst, rejectSecond] = [lens('Accept', 0), lens('Reject', 1)];
    assert.equal(await vscode.commands.executeCommand(acceptFirst.command, ...acceptFirst.arguments!), true);
    // The second lens as it was before the accept: its baseline lines have moved by one since.
    assert.equal(await vscode.commands.executeCommand(rejectSecond.command, ...rejectSecond.arguments!), true);
    const expected = lines.map((l, i) => (i === 1 ? 'line 2 changed\nline 2b added\n' : l)).join('');
    await waitFor('the first hunk kept, the second rejected', () => fs.readFileSync(file, 'utf8') === expected);
    await reviewOver(file);
    // Clicked again, the stale lens finds nothing, and nothing changes.
    assert.equal(await vscode.commands.executeCommand(rejectSecond.command, ...rejectSecond.arguments!), false);
    assert.equal(fs.readFileSync(file, 'utf8'), expected);
  });

  it('an agent that writes the disk and sends fs/write_text_file too (OpenCode): a write finding its text already there keeps the real baseline', async () => {
    const file = ws('written-twice.txt');
    const before = 'line one\nline two\n';
    const after = 'line one\nline two, changed by the agent\n';
    fs.writeFileSync(file, before);
    const api = await howdah();
    // the agent's own disk write gets there before its fs/write_text_file is handled (and before the watcher reports it)
    const key = await diskThenWriteTurn({ EDITS_TARGET: 'written-twice.txt', EDITS_OLD: before, EDITS_NEW: after }, () => fs.writeFileSync(file, after));
    assert.equal(agentText(api.snapshot(key)), 'write: ', 'the write succeeded');
    const change = await waitFor('the pending change', () => pendingFor(file));
    assert.deepEqual([change.kind, change.added, change.removed], ['modified', 1, 1]);
    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
    await waitFor('the text from before the turn', () => fs.readFileSync(file, 'utf8') === before);
    fs.rmSync(file);
  });

  it('an agent that writes the disk itself and through a held write over an unsaved buffer: rejecting the file rejects both', async () => {
    const file = ws('written-twice-dirty.txt');
    const before = 'line one\nline two\n';
    const after = 'line one\nline two, changed by the agent\n';
    fs.writeFileSync(file, before);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(2, 0), 'typed, not saved\n'));
    try {
      await diskThenWriteTurn({ EDITS_TARGET: 'written-twice-dirty.txt', EDITS_OLD: before, EDITS_NEW: after }, () => fs.writeFileSync(file, after));
      const state = async () => (await vscode.commands.executeCommand('howdah.edits.test.state')) as { pending: { fsPath: string }[]; proposals: { path: string }[] };
      await waitFor('the held write and the disk change', async () => {
        const s = await state();
        return s.proposals.some((p) => p.path === file) && s.pending.filter((p) => p.fsPath === file).length >= 2 ? s : undefined;
      });
      // The buffer holds the user's unsaved line, which the agent's version lacks: Howdah asks before discarding it.
      await vscode.commands.executeCommand('howdah.edits.test.answer', 'Reject Anyway');
      await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file));
      await waitFor('nothing of the agent left', async () => {
        const s = await state();
        return !s.proposals.some((p) => p.path === file) && !s.pending.some((p) => p.fsPath === file) ? s : undefined;
      });
      // Restored through the open document, as the user sees it (a dirty document is edited, not saved over).
      await waitFor('the text from before the turn', () => doc.getText() === before || undefined);
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      fs.rmSync(file, { force: true });
    }
  });

  it('a file changed by someone else after the agent: the review follows it, and nothing of theirs is overwritten blindly', async () => {
    const file = ws('src/a.ts');
    const before = fs.readFileSync(file, 'utf8');
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'src/a.ts' }));
    await api.prompt(key, `${before}// agent line\n`);
    await waitFor('the agent change', async () => (await pendingFor(file))?.added === 1);
    // Past the turn's grace period, the user (or git, a formatter) changes the top of the file on disk.
    await new Promise((r) => setTimeout(r, 1200));
    fs.writeFileSync(file, `// user line\n${before}// agent line\n`);
    await waitFor('the review to follow the new content', async () => (await pendingFor(file))?.added === 2);

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Cancel');
    assert.equal(await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(file)), false, 'asked first; declined');
    assert.match((await state()).asked.at(-1)!.message, /was changed after the agent/);
    assert.equal(fs.readFileSync(file, 'utf8'), `// user line\n${before}// agent line\n`);

    const hunks = computeHunks(splitLines(before), splitLines(fs.readFileSync(file, 'utf8')));
    assert.equal(await vscode.commands.executeCommand('howdah.rejectHunk', vscode.Uri.file(file).toString(), hunks[1]), true);
    await waitFor('only the agent line gone', () => fs.readFileSync(file, 'utf8') === `// user line\n${before}`);
    fs.writeFileSync(file, before);
    await reviewOver(file);
  });

  it('with howdah.followAgent on, the file the agent edits opens at its location', async () => {
    const config = vscode.workspace.getConfiguration('howdah');
    await config.update('followAgent', true, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const file = ws('notes.md');
      await diskTurn({ EDITS_TARGET: 'notes.md' }, () => undefined);
      const editor = await waitFor('the followed editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === file));
      assert.equal(editor.selection.active.line, 0);
    } finally {
      await config.update('followAgent', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('created and deleted files are changes too: rejecting deletes the created one and brings back the deleted one', async () => {
    const created = ws('src/created-by-agent.ts');
    await diskTurn({ EDITS_TARGET: 'src/created-by-agent.ts', EDITS_NEW: 'export const c = 1;\n', EDITS_DIFF_CREATED: '1' }, () =>
      fs.writeFileSync(created, 'export const c = 1;\n'),
    );
    assert.equal((await waitFor('the created file', () => pendingFor(created))).kind, 'created');
    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(created));
    await waitFor('the created file to be gone', () => !fs.existsSync(created));

    // Past the previous turn's grace period (its late watcher events still count as the agent's).
    await new Promise((r) => setTimeout(r, 1500));
    const doomed = ws('doomed.txt');
    fs.writeFileSync(doomed, 'keep me\r\nexactly');
    await diskTurn({ EDITS_TARGET: 'doomed.txt' }, () => fs.rmSync(doomed));
    const deleted = await waitSeen('the deleted file', () => pendingFor(doomed));
    assert.equal(deleted.kind, 'deleted');
    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(doomed));
    await waitFor('the deleted file back, byte for byte', () => fs.existsSync(doomed) && fs.readFileSync(doomed, 'utf8') === 'keep me\r\nexactly');

    const made = ws('made-through-us.txt');
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'made-through-us.txt' }));
    await api.prompt(key, 'new\n');
    assert.equal((await waitFor('the file created through us', () => pendingFor(made))).kind, 'created');
    await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.file(made));
    await waitFor('it to be gone', () => !fs.existsSync(made));
  });

  it('"restore files to before this message" puts every file back as it was before that turn', async () => {
    const file = ws('checkpoint.txt');
    fs.writeFileSync(file, 'original\n');
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'checkpoint.txt' }));
    await api.prompt(key, 'first turn\n');
    await api.prompt(key, 'second turn\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'second turn\n');

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Restore');
    assert.equal(await vscode.commands.executeCommand('howdah.restoreCheckpoint', key, 1), true);
    assert.equal(fs.readFileSync(file, 'utf8'), 'first turn\n');
    const asked = (await state()).asked.at(-1)!;
    assert.match(asked.message, /Restore 1 file/);
    assert.ok(asked.detail?.includes('checkpoint.txt'), 'the confirmation lists the file');

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Restore');
    assert.equal(await vscode.commands.executeCommand('howdah.restoreCheckpoint', key, 0), true);
    assert.equal(fs.readFileSync(file, 'utf8'), 'original\n');
    await reviewOver(file);

    // Clicked twice (a double click): one question, one restore.
    await api.prompt(key, 'between\n');
    const questions = (await state()).asked.length;
    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Restore');
    const twice = await Promise.all([1, 2].map(() => vscode.commands.executeCommand('howdah.restoreCheckpoint', key, 2)));
    assert.deepEqual(twice, [true, false]);
    assert.equal((await state()).asked.length, questions + 1, 'asked once');
    assert.equal(fs.readFileSync(file, 'utf8'), 'original\n');

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Cancel');
    await api.prompt(key, 'third turn\n');
    assert.equal(await vscode.commands.executeCommand('howdah.restoreCheckpoint', key, 3), false, 'declined: nothing restored');
    assert.equal(fs.readFileSync(file, 'utf8'), 'third turn\n');
  });

  it('a write to a file that steers execution asks first, even with writes allowed', async () => {
    const file = ws('.vscode/tasks.json');
    const api = await howdah();
    const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: '.vscode/tasks.json' }));

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Deny');
    await api.prompt(key, '{"tasks": []}\n');
    assert.match(agentText(api.snapshot(key)), /write: The user denied the write/);
    assert.ok(!fs.existsSync(file), 'nothing written');
    const asked = (await state()).asked.at(-1)!;
    assert.match(asked.message, /\.vscode\/tasks\.json/);
    assert.match(asked.detail ?? '', /sensitive/);

    await vscode.commands.executeCommand('howdah.edits.test.answer', 'Allow');
    await api.prompt(key, '{"tasks": []}\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"tasks": []}\n');
    assert.ok(await waitFor('the pending change', () => pendingFor(file)));
  });

  it('with howdah.fs.write = ask the write waits for the diff editor; a rejection reaches the agent as an error', async () => {
    const config = vscode.workspace.getConfiguration('howdah');
    await config.update('fs.write', 'ask', vscode.ConfigurationTarget.Global);
    try {
      const file = ws('src/a.ts');
      const before = fs.readFileSync(file, 'utf8');
      const api = await howdah();
      const key = await api.newSession(await agent('edits-write', { EDITS_TARGET: 'src/a.ts' }));

      const rejected = api.prompt(key, 'export const rejected = true;\n');
      const first = await waitFor('the proposal', async () => (await state()).proposals.find((p) => p.path === file));
      assert.equal(first.mode, 'ask');
      assert.equal(fs.readFileSync(file, 'utf8'), before, 'nothing written while waiting');
      await vscode.commands.executeCommand('howdah.rejectFileChanges', vscode.Uri.parse(first.uri));
      await rejected;
      assert.match(agentText(api.snapshot(key)), /write: The user rejected the change/);
      assert.equal(fs.readFileSync(file, 'utf8'), before);

      const accepted = api.prompt(key, 'export const accepted = true;\n');
      const second = await waitFor('the second proposal', async () => (await state()).proposals.find((p) => p.path === file));
      await vscode.commands.executeCommand('howdah.acceptFileChanges', vscode.Uri.parse(second.uri));
      await accepted;
      assert.match(agentText(api.snapshot(key)), /write: $/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'export const accepted = true;\n');
      assert.ok(!(await pendingFor(file)), 'reviewed already: not pending');
      fs.writeFileSync(file, before);
    } finally {
      await config.update('fs.write', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
