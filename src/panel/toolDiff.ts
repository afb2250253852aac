import * as vscode from 'vscode';
import type { PanelSessions } from './panelSessions';

/** The edits layer's review of a file, when it has one (src/edits: `EditsLayer.openChanges`). */
export interface ReviewOpener {
  /** Opens the review of `uri`; false when the file has no pending changes. */
  openChanges(uri: vscode.Uri): Promise<boolean>;
}

const SCHEME = 'howdah-tool-diff';
/** Old diffs are dropped past this many, so the provider does not keep every file the agent ever touched. */
const KEEP = 50;

/**
 * "Open diff" on a tool call's `diff` content. When the edits layer reviews changes to that file, its review diff
 * opens (with Accept / Reject); otherwise the agent's old and new text side by side in VS Code's diff editor, both
 * as read-only virtual documents (a diff may be a fragment of the file, so the file on disk is not the right side).
 */
export class ToolDiffViewer implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 1;

  constructor(
    private readonly sessions: PanelSessions,
    private readonly reviews?: ReviewOpener,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  async open(toolCallId: string, index: number): Promise<void> {
    const call = this.sessions.active?.session.state.toolCalls.get(toolCallId);
    const content = call?.content[index];
    if (!content || content.type !== 'diff') {
      void vscode.window.showWarningMessage(vscode.l10n.t('That change is no longer available.'));
      return;
    }
    if (await this.openReview(content.path)) return;
    const name = content.path.split(/[\\/]/).pop() || content.path;
    const left = this.store(content.oldText ?? '', `${name} (before)`, content.path);
    const right = this.store(content.newText, `${name} (after)`, content.path);
    const label = content.oldText == null ? vscode.l10n.t('{0} (new file, from {1})', name, call.title) : vscode.l10n.t('{0} (change from {1})', name, call.title);
    await vscode.commands.executeCommand('vscode.diff', left, right, label, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  /** The edits layer's review of `path` (with Accept / Reject), when it has pending changes there. */
  private async openReview(path: string): Promise<boolean> {
    if (!this.reviews || (!path.startsWith('/') && !/^[a-z]:[\\/]/i.test(path))) return false;
    return this.reviews.openChanges(vscode.Uri.file(path));
  }

  private store(text: string, label: string, path: string): vscode.Uri {
    const key = String(this.next++);
    this.texts.set(key, text);
    if (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value as string);
    // The path's extension in the URI gives the editor its language.
    const ext = /\.[A-Za-z0-9_-]+$/.exec(path)?.[0] ?? '';
    return vscode.Uri.from({ scheme: SCHEME, path: `/${label.replace(/[\\/]/g, '_')}${ext && !label.endsWith(ext) ? ext : ''}`, query: key });
  }
}
