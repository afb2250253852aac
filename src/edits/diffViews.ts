import * as path from 'node:path';
import * as vscode from 'vscode';
import { openDocument } from './fileAccess';
import { computeHunks, hunkRef, splitLines, type HunkRef } from './hunks';
import type { PendingChanges } from './pendingChanges';
import { PROPOSAL_SCHEME, type Proposal, type Proposals } from './proposals';
import { setResourcesContext } from './resourceContext';

export const BASELINE_SCHEME = 'howdah-baseline';

/** The left side of a review: the baseline as a read-only virtual document (same path, so same language). */
export function baselineUri(fsPath: string): vscode.Uri {
  return vscode.Uri.file(fsPath).with({ scheme: BASELINE_SCHEME, query: 'baseline' });
}

/** An empty side: the left of a created file, the right of a deleted one. */
export function emptyUri(fsPath: string, why: 'created' | 'deleted'): vscode.Uri {
  return vscode.Uri.file(fsPath).with({ scheme: BASELINE_SCHEME, query: why });
}

/** The file a URI of ours (or a file URI) stands for. */
export function fsPathOf(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.with({ scheme: 'file', query: '', fragment: '' }).fsPath;
}

/**
 * The native diff editors of the review, and what decorates them: the baseline provider for left sides, per-hunk
 * Accept/Reject CodeLens above each hunk on the right side (a reviewed file, or a proposal), and the context key the
 * editor-title buttons show on.
 */
export class DiffViews implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly contentChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChange = this.contentChanged.event;
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly pending: PendingChanges,
    private readonly proposals: Proposals,
  ) {
    this.disposables.push(
      pending.onDidChangeBaseline((fsPath) => {
        this.contentChanged.fire(baselineUri(fsPath));
        this.lensesChanged.fire();
      }),
      pending.onDidChange(() => {
        this.lensesChanged.fire();
        void this.updateContext();
      }),
      proposals.onDidChangeProposals(() => {
        this.lensesChanged.fire();
        void this.updateContext();
      }),
    );
    void this.updateContext();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query !== 'baseline') return '';
    return (await this.pending.baselineText(fsPathOf(uri))) ?? '';
  }

  /** Baseline on the left, the real (editable) file on the right; VS Code's own revert arrows work on it. */
  async openReview(fsPath: string, options: { preview?: boolean; line?: number } = {}): Promise<void> {
    const entry = this.pending.entry(fsPath);
    if (!entry) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No pending agent changes in {0}.', vscode.workspace.asRelativePath(fsPath)));
      return;
    }
    const kind = this.pending.kindOf(fsPath);
    const left = entry.baseline === null ? emptyUri(fsPath, 'created') : baselineUri(fsPath);
    const right = kind === 'deleted' ? emptyUri(fsPath, 'deleted') : vscode.Uri.file(fsPath);
    const what = kind === 'created' ? vscode.l10n.t('Agent created') : kind === 'deleted' ? vscode.l10n.t('Agent deleted') : vscode.l10n.t('Agent changes');
    const selection = options.line === undefined ? undefined : new vscode.Range(options.line, 0, options.line, 0);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(fsPath)} (${what})`, { preview: options.preview ?? false, selection });
  }

  /** The file as it is now on the left, the agent's proposal (read-only) on the right. */
  async openProposal(p: Proposal): Promise<void> {
    const exists = !!openDocument(p.path) || p.original !== null;
    const left = exists ? vscode.Uri.file(p.path) : emptyUri(p.path, 'created');
    const label = p.mode === 'ask' ? vscode.l10n.t('Agent proposal — waiting for you') : vscode.l10n.t('Agent proposal — you have unsaved changes');
    await vscode.commands.executeCommand('vscode.diff', left, p.uri, `${path.basename(p.path)} (${label})`, { preview: false });
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const hunks = await this.hunksOf(document);
    if (!hunks) return [];
    const uri = document.uri.toString();
    const lenses: vscode.CodeLens[] = [];
    for (const h of hunks) {
      const line = Math.min(h.curStart, Math.max(0, document.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      const stats = `${h.curEnd - h.curStart ? `+${h.curEnd - h.curStart}` : ''}${h.baseEnd - h.baseStart ? ` −${h.baseEnd - h.baseStart}` : ''}`.trim();
      lenses.push(
        new vscode.CodeLens(range, { title: vscode.l10n.t('$(check) Accept'), tooltip: vscode.l10n.t('Keep this change (Howdah)'), command: 'howdah.acceptHunk', arguments: [uri, h] }),
        new vscode.CodeLens(range, { title: vscode.l10n.t('$(discard) Reject'), tooltip: vscode.l10n.t('Undo this change (Howdah)'), command: 'howdah.rejectHunk', arguments: [uri, h] }),
        new vscode.CodeLens(range, { title: vscode.l10n.t('Agent change {0}', stats), command: '' }),
      );
    }
    return lenses;
  }

  /**
   * The hunks shown in an editor: a reviewed file (baseline → document) or a proposal (file → proposal), each with
   * its lines, so that a lens clicked before VS Code refreshed it still finds its hunk (see `findHunk`).
   */
  async hunksOf(document: vscode.TextDocument): Promise<HunkRef[] | undefined> {
    if (document.uri.scheme === PROPOSAL_SCHEME) {
      const p = this.proposals.fromUri(document.uri);
      if (!p) return undefined;
      const c = await this.proposals.compare(p);
      return c.hunks.map((h) => hunkRef(c.file, c.proposal, h));
    }
    if (document.uri.scheme !== 'file' || !this.pending.has(document.uri.fsPath)) return undefined;
    const baseline = await this.pending.baselineText(document.uri.fsPath);
    if (baseline === undefined) return undefined;
    const base = splitLines(baseline ?? '');
    const cur = splitLines(document.getText());
    return computeHunks(base, cur).map((h) => hunkRef(base, cur, h));
  }

  /** `howdah.reviewedResources`: every right-side URI with something to decide, for the editor-title buttons (as Uri objects: see `setResourcesContext`). */
  private async updateContext(): Promise<void> {
    const uris = [
      ...this.pending.paths().flatMap((p) => [vscode.Uri.file(p), emptyUri(p, 'deleted')]),
      ...this.proposals.list().map((p) => p.uri),
    ];
    await setResourcesContext('howdah.reviewedResources', uris);
    await vscode.commands.executeCommand('setContext', 'howdah.hasPendingChanges', uris.length > 0 || this.pending.opaquePaths().length > 0);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.contentChanged.dispose();
    this.lensesChanged.dispose();
  }
}
