import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { agentText, howdah, workspaceFolder } from './helpers';

// Agent `fake-fs` runs the fake agent's `fs` scenario: it reads notes.md through fs/read_text_file and
// sends what it read back as an agent message chunk ("notes.md says:\n<content>").
const MARKER = 'UNSAVED-7f3a: only in the editor buffer';

describe('agent file reads', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await howdah()).stopAll();
  });

  it('fs/read_text_file of an open file with unsaved changes returns the unsaved text', async () => {
    const api = await howdah();
    const uri = vscode.Uri.joinPath(workspaceFolder(), 'notes.md');
    const editor = await vscode.window.showTextDocument(uri);
    await editor.edit(b => b.insert(new vscode.Position(0, 0), `${MARKER}\n`));
    assert.ok(editor.document.isDirty, 'the buffer has unsaved changes');
    assert.ok(!fs.readFileSync(uri.fsPath, 'utf8').includes(MARKER), 'the marker is not on disk');

    const key = await api.newSession('fake-fs');
    await api.prompt(key, 'What do the notes say?');
    const text = agentText(api.snapshot(key));
    assert.ok(text.includes(`notes.md says:\n${MARKER}`), `the agent read the buffer: ${JSON.stringify(text.slice(0, 120))}`);
  });
});
