import * as vscode from 'vscode';
import { revealInvisible } from '../shared/textSafety';

/**
 * Opens what the user clicked in the chat. The webview never navigates: it posts the target, and the host opens it
 * here — files inside the workspace directly, anything that leaves the workspace (web links, mail, files elsewhere,
 * other schemes) only after a confirmation that shows the full target.
 */

const EXTERNAL_SCHEMES = new Set(['http', 'https', 'mailto']);
/** `vscode:` links run extension URI handlers; allowed, but always confirmed. */
const EDITOR_SCHEMES = new Set(['vscode', 'vscode-insiders']);

export async function openLink(href: string): Promise<void> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === 'file' || /^[a-z]$/i.test(scheme)) {
    // No scheme (a relative path), a file URI, or a Windows drive letter.
    const { path, line } = splitLineSuffix(scheme === 'file' ? vscode.Uri.parse(href).fsPath : href);
    return openLocation(path, line);
  }
  if (!EXTERNAL_SCHEMES.has(scheme) && !EDITOR_SCHEMES.has(scheme)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Howdah does not open {0}: links.', scheme));
    return;
  }
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    void vscode.window.showWarningMessage(vscode.l10n.t('The link is not a valid address.'));
    return;
  }
  if (await confirm(vscode.l10n.t('Open this {0} from the agent?', scheme === 'mailto' ? vscode.l10n.t('mail address') : vscode.l10n.t('link')), href)) await vscode.env.openExternal(uri);
}

export async function openLocation(path: string, line?: number): Promise<void> {
  const uri = resolvePath(path);
  if (!uri) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Cannot open {0}: open a folder first.', revealInvisible(path)));
    return;
  }
  if (!vscode.workspace.getWorkspaceFolder(uri) && !(await confirm(vscode.l10n.t('Open this file outside the workspace?'), uri.fsPath))) return;
  const position = line !== undefined && line > 0 ? new vscode.Position(line - 1, 0) : undefined;
  try {
    await vscode.window.showTextDocument(uri, { preview: true, selection: position ? new vscode.Range(position, position) : undefined });
  } catch (error) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Cannot open {0}: {1}', revealInvisible(uri.fsPath), error instanceof Error ? error.message : String(error)));
  }
}

/** Absolute paths as they are; relative ones against the first workspace folder. */
function resolvePath(path: string): vscode.Uri | undefined {
  if (path.startsWith('/') || /^[a-z]:[\\/]/i.test(path) || path.startsWith('\\\\')) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

/** `src/a.ts#L12`, `src/a.ts#L12-L20` and `src/a.ts:12` name a line. */
export function splitLineSuffix(target: string): { path: string; line?: number } {
  const hash = /^(.*)#L(\d+)(?:-L?\d+)?$/.exec(target);
  if (hash) return { path: decodeSafely(hash[1]), line: Number(hash[2]) };
  const colon = /^(.*?):(\d+)(?::\d+)?$/.exec(target);
  if (colon && colon[1].length > 1) return { path: decodeSafely(colon[1]), line: Number(colon[2]) };
  return { path: decodeSafely(target.replace(/#.*$/, '')) };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function confirm(question: string, target: string): Promise<boolean> {
  const open: vscode.MessageItem = { title: vscode.l10n.t('Open') };
  const choice = await vscode.window.showInformationMessage(question, { modal: true, detail: revealInvisible(target) }, open);
  return choice === open;
}
