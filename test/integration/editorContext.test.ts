import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor, workspaceFolder } from './helpers';

interface ContextAttachment {
  kind: string;
  source?: string;
  label: string;
  text?: string;
}

describe('editor and terminal context for the chat', function () {
  this.timeout(60000);
  const diagnostics = vscode.languages.createDiagnosticCollection('howdah-test');
  let file: string;

  beforeEach(async () => {
    file = path.join(workspaceFolder().fsPath, `problems-${Date.now()}.ts`);
    fs.writeFileSync(file, 'const a: number = "x";\nconst b = 1;\nconst c = 2;\nlet unused = 3;\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const error = new vscode.Diagnostic(new vscode.Range(0, 6, 0, 7), 'Type "string" is not assignable to type "number".', vscode.DiagnosticSeverity.Error);
    error.source = 'ts';
    error.code = 2322;
    const warning = new vscode.Diagnostic(new vscode.Range(3, 4, 3, 10), "'unused' is declared but never used.", vscode.DiagnosticSeverity.Warning);
    diagnostics.set(doc.uri, [error, warning]);
  });
  afterEach(async () => {
    diagnostics.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
    const api = await howdah();
    for (const key of api.sessionKeys()) await api.close(key);
  });
  after(() => diagnostics.dispose());

  it("Add Problems to Chat attaches the active file's problems, or only the selection's", async () => {
    const api = await howdah();
    const name = path.basename(file);
    await vscode.commands.executeCommand('howdah.addProblems');
    const [all] = api.panelAttachments() as ContextAttachment[];
    assert.equal(all.kind, 'context');
    assert.equal(all.label, `Problems in ${name} (2)`);
    assert.deepEqual(all.text?.split('\n'), [`${name}:1:7 error ts(2322): Type "string" is not assignable to type "number".`, `${name}:4:5 warning: 'unused' is declared but never used.`]);
    vscode.window.activeTextEditor!.selection = new vscode.Selection(3, 0, 3, 14);
    await vscode.commands.executeCommand('howdah.addProblems');
    const [selected] = api.panelAttachments() as ContextAttachment[];
    assert.equal(selected.label, `Problems in ${name}:4-4 (1)`);
    assert.match(selected.text ?? '', /^\S+:4:5 warning/);
  });

  it('@problems in a prompt sends the workspace’s errors and warnings when the prompt goes', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('echo', 'test:echo', {}, 'Fake Echo'));
    api.setActive(key);
    await api.panelIntent({ type: 'send', text: 'fix @problems', attachments: [{ kind: 'file', uri: 'howdah:problems', label: 'problems' }] });
    const heard = await waitFor('the echo', () => agentText(api.snapshot(key)) || undefined);
    assert.match(heard, /Received 2 prompt block\(s\)/);
    assert.match(heard, /- text: "Problems in the workspace \(\d+\):\\n```\\n[^"]*Type \\"string\\" is not assignable/);
  });

  it('Send Terminal Selection to Chat attaches what is selected in the active terminal, and leaves the clipboard as it was', async () => {
    const api = await howdah();
    await vscode.env.clipboard.writeText('what the user had copied');
    const terminal = vscode.window.createTerminal({ name: 'howdah-context' });
    terminal.show();
    terminal.sendText('echo howdah-terminal-text');
    let attached: ContextAttachment | undefined;
    await waitFor(
      'the terminal text to be selectable',
      async () => {
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('howdah.addTerminalSelection');
        attached = (api.panelAttachments() as ContextAttachment[]).find((a) => a.source === 'terminal' && a.text?.includes('howdah-terminal-text'));
        return attached;
      },
      20000,
    );
    assert.equal(attached?.label, 'Terminal howdah-context');
    assert.equal(await vscode.env.clipboard.readText(), 'what the user had copied');
    terminal.dispose();
  });

  it('unsaved files are said before a prompt goes to an agent that reads the disk: Save all and send, Send anyway, Cancel', async () => {
    const api = await howdah();
    const key = await api.newSession(await registerAgent('echo', 'test:echo', {}, 'Fake Echo'));
    api.setActive(key);
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// typed, not saved\n');
    await vscode.workspace.applyEdit(edit);
    assert.ok(doc.isDirty);
    const users = () => (api.snapshot(key) as { entries: { role?: string; text?: string }[] }).entries.filter((e) => e.role === 'user').map((e) => e.text);

    await api.panelIntent({ type: 'send', text: 'fix it', attachments: [] });
    const notice = api.panelUnsavedNotice();
    assert.deepEqual(notice?.files, [path.basename(file)], 'the unsaved file is named');
    assert.deepEqual(users(), [], 'the message waits for the choice');
    await api.panelIntent({ type: 'unsavedChoice', id: notice!.id, choice: 'save' });
    assert.equal(doc.isDirty, false, 'Save all and send saved it');
    assert.ok(fs.readFileSync(file, 'utf8').startsWith('// typed, not saved'));
    assert.deepEqual(users(), ['fix it'], 'then sent');
    assert.equal(api.panelUnsavedNotice(), undefined);

    await vscode.workspace.applyEdit(edit);
    await api.panelIntent({ type: 'send', text: 'as it is', attachments: [] });
    await api.panelIntent({ type: 'unsavedChoice', id: api.panelUnsavedNotice()!.id, choice: 'send' });
    assert.ok(doc.isDirty, 'Send anyway leaves the editor unsaved');
    assert.deepEqual(users(), ['fix it', 'as it is']);

    await api.panelIntent({ type: 'send', text: 'never mind', attachments: [] });
    const held = api.panelUnsavedNotice()!;
    await api.panelIntent({ type: 'unsavedChoice', id: held.id + 1, choice: 'send' });
    assert.ok(api.panelUnsavedNotice(), 'a choice for another notice does nothing');
    await api.panelIntent({ type: 'unsavedChoice', id: held.id, choice: 'cancel' });
    assert.deepEqual(users(), ['fix it', 'as it is'], 'Cancel sends nothing');

    // A file attached to the prompt goes with its unsaved text when the agent takes embedded context.
    const embedding = await api.newSession(await registerAgent('echo-embedded', 'test:echo-embedded', {}, 'Fake Embedder'));
    api.setActive(embedding);
    const uri = vscode.Uri.file(file).toString();
    await api.panelIntent({ type: 'send', text: 'this one', attachments: [{ kind: 'file', uri, label: path.basename(file) }] });
    assert.equal(api.panelUnsavedNotice(), undefined, 'nothing else is unsaved: no notice');
    await waitFor('the attached file sent, unsaved text and all', () => /resource: \S+ \(\d+ chars\)/.test(agentText(api.snapshot(embedding))));
    api.setActive(key);

    await vscode.workspace.getConfiguration('howdah').update('saveBeforePrompt', 'never', vscode.ConfigurationTarget.Global);
    try {
      await api.panelIntent({ type: 'send', text: 'no questions', attachments: [] });
      assert.equal(api.panelUnsavedNotice(), undefined);
      assert.deepEqual(users().at(-1), 'no questions', 'never: sent at once');
    } finally {
      await vscode.workspace.getConfiguration('howdah').update('saveBeforePrompt', undefined, vscode.ConfigurationTarget.Global);
    }
    await doc.save();
  });

  it('an agent that reads files through Howdah sees unsaved text, so it is not asked about', async () => {
    const api = await howdah();
    const rel = path.basename(file);
    const key = await api.newSession(await registerAgent('files-read', 'test:files-read', { READ_TARGET: rel }));
    api.setActive(key);
    await api.prompt(key, 'read it');
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// unsaved\n');
    await vscode.workspace.applyEdit(edit);
    await api.panelIntent({ type: 'send', text: 'again', attachments: [] });
    assert.equal(api.panelUnsavedNotice(), undefined);
    await waitFor('the message sent', () => agentText(api.snapshot(key)).includes('all=// unsaved'));
    await doc.save();
  });
});
