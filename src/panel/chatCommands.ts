import * as vscode from 'vscode';
import type { Attachment } from '../shared/protocol';
import { problemsAttachment, terminalSelectionAttachment } from './editorContext';
import { fileAttachment, type MediaAccepted } from './mediaAttachments';

/**
 * "Howdah: Add Selection to Chat", "Add File to Chat" (a sound or picture file inline when the agent takes it), "Add Problems to Chat" and "Send Terminal Selection to Chat":
 * attach what the user points at to the prompt and bring the chat forward.
 */
export function registerChatCommands(attach: (attachments: Attachment[]) => void, accepted: () => MediaAccepted): vscode.Disposable {
  const show = async (attachments: Attachment[]) => {
    if (attachments.length === 0) return;
    attach(attachments);
    await vscode.commands.executeCommand('howdah.chat.focus');
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('howdah.addSelection', () => show(selectionAttachments(vscode.window.activeTextEditor))),
    // The active file's problems, or the selection's when there is one.
    vscode.commands.registerCommand('howdah.addProblems', () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: open a file to add its problems to the chat.'));
      const range = editor.selection.isEmpty ? undefined : editor.selection;
      const problems = problemsAttachment(editor.document.uri, range);
      if (!problems) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: no problems in {0}.', range ? vscode.l10n.t('the selection') : vscode.workspace.asRelativePath(editor.document.uri)));
      return show([problems]);
    }),
    vscode.commands.registerCommand('howdah.addTerminalSelection', async () => {
      const selection = await terminalSelectionAttachment();
      if (!selection) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: select some text in a terminal first.'));
      return show([selection]);
    }),
    // From the explorer: (clicked, all selected); from the editor title or palette: nothing, meaning the active file.
    vscode.commands.registerCommand('howdah.addFile', async (clicked?: unknown, selected?: unknown) => {
      const uris = Array.isArray(selected) && selected.every((u) => u instanceof vscode.Uri) ? (selected as vscode.Uri[]) : clicked instanceof vscode.Uri ? [clicked] : await pickFiles();
      return show(await Promise.all(uris.map((uri) => attachmentOf(uri, accepted()))));
    }),
  );
}

export function selectionAttachments(editor: vscode.TextEditor | undefined): Attachment[] {
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a file and select some text to add it to the chat.'));
    return [];
  }
  const document = editor.document;
  return editor.selections.map((selection) => {
    // An empty selection means the line the cursor is on.
    const range = selection.isEmpty ? document.lineAt(selection.active.line).range : selection;
    const startLine = range.start.line + 1;
    // A selection that ends at the start of a line does not include that line.
    const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
    const path = vscode.workspace.asRelativePath(document.uri);
    return {
      kind: 'selection' as const,
      uri: document.uri.toString(),
      label: startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`,
      startLine,
      endLine,
      text: document.getText(range),
      languageId: document.languageId,
    };
  });
}

/** A sound or picture the agent accepts goes inline; any other file (or one that cannot be read) as a mention. */
async function attachmentOf(uri: vscode.Uri, accepted: MediaAccepted): Promise<Attachment> {
  const file = { uri: uri.toString(), label: vscode.workspace.asRelativePath(uri) };
  try {
    const { size } = await vscode.workspace.fs.stat(uri);
    return await fileAttachment({ ...file, size }, accepted, () => Promise.resolve(vscode.workspace.fs.readFile(uri)));
  } catch {
    return { kind: 'file', ...file };
  }
}

async function pickFiles(): Promise<vscode.Uri[]> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === 'file') return [active];
  return (await vscode.window.showOpenDialog({ canSelectMany: true, openLabel: vscode.l10n.t('Add to Chat'), defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri })) ?? [];
}
