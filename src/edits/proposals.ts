import * as vscode from 'vscode';
import { applyOffsetEdits, openDocument, readCurrent } from './fileAccess';
import { computeHunks, editsBetween, findHunk, rejectEdit, rejectHunk, splitLines, type Hunk, type HunkRef } from './hunks';

export const PROPOSAL_SCHEME = 'howdah-proposal';

export type ProposalOutcome = 'accepted' | 'partial' | 'rejected' | 'cancelled';

/**
 * An agent write that is not applied yet: with `howdah.fs.write` = `ask` (the agent's request waits for the user), or
 * when the file's editor holds unsaved changes of the user's (`held`: the agent was told the write succeeded; its
 * content waits here so nothing the user typed is overwritten). Shown as a diff: left the file as it is now, right the
 * agent's text (read-only). Accepting a hunk copies it into the file's document; rejecting one drops it from the
 * proposal. When no hunk is left the proposal is settled.
 */
export class Proposal {
  constructor(
    readonly id: number,
    readonly path: string,
    readonly session: string,
    readonly mode: 'ask' | 'held',
    /** What the agent asked for; `text` moves toward the file as hunks are rejected. */
    readonly proposed: string,
    public text: string,
    /** The file's text when proposed (null: it did not exist). */
    readonly original: string | null,
    readonly wasDirty: boolean,
    readonly settle: (outcome: ProposalOutcome) => void,
  ) {}

  get uri(): vscode.Uri {
    return vscode.Uri.file(this.path).with({ scheme: PROPOSAL_SCHEME, query: `id=${this.id}` });
  }
}

export interface ProposalHooks {
  /** The first change a proposal makes to the file (for the checkpoint). */
  beforeFirstChange(p: Proposal): Promise<void>;
  /** A file that did not exist: create it with the accepted text (through the sandbox). */
  create(p: Proposal, text: string): Promise<void>;
  /** Save the document after an `ask` proposal settled with changes (unless the user had unsaved edits in it). */
  save(document: vscode.TextDocument): Promise<void>;
  opened(p: Proposal): Promise<void>;
}

export class Proposals implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly byId = new Map<number, Proposal>();
  private readonly touched = new Set<number>();
  private nextId = 1;
  private readonly contentChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.contentChanged.event;
  readonly onDidChangeProposals = this.changed.event;

  constructor(private readonly hooks: ProposalHooks) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.fromUri(uri)?.text ?? '';
  }

  list(): Proposal[] {
    return [...this.byId.values()];
  }

  fromUri(uri: vscode.Uri): Proposal | undefined {
    const id = Number(/(?:^|&)id=(\d+)/.exec(uri.query)?.[1]);
    return uri.scheme === PROPOSAL_SCHEME ? this.byId.get(id) : undefined;
  }

  forPath(fsPath: string): Proposal | undefined {
    return this.list().find((p) => p.path === fsPath);
  }

  /** Shows the proposal; resolves when the user has decided every hunk (or the request was cancelled). */
  propose(path: string, session: string, mode: 'ask' | 'held', text: string, original: string | null, signal?: AbortSignal, open = true): Promise<ProposalOutcome> {
    // A newer proposal for the same file replaces an older held one (the agent moved on).
    const older = this.forPath(path);
    if (older) this.finish(older, 'cancelled');
    return new Promise<ProposalOutcome>((resolve) => {
      const p = new Proposal(this.nextId++, path, session, mode, text, text, original, openDocument(path)?.isDirty ?? false, resolve);
      this.byId.set(p.id, p);
      signal?.addEventListener('abort', () => this.finish(p, 'cancelled'), { once: true });
      this.changed.fire();
      if (open) void this.hooks.opened(p);
    });
  }

  async compare(p: Proposal): Promise<{ file: string[]; proposal: string[]; hunks: Hunk[]; exists: boolean }> {
    const current = await readCurrent(p.path);
    const file = splitLines(current.exists ? current.text : '');
    const proposal = splitLines(p.text);
    return { file, proposal, hunks: computeHunks(file, proposal), exists: current.exists };
  }

  /** Copies one hunk of the agent's text into the file (its document; a new file is created whole). */
  async acceptHunk(p: Proposal, hunk: HunkRef): Promise<boolean> {
    const c = await this.compare(p);
    const h = findHunk(c.hunks, c.file, c.proposal, hunk);
    if (!h) return false;
    await this.touch(p);
    if (!c.exists) {
      await this.hooks.create(p, p.text);
    } else {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(p.path));
      const swapped = { baseStart: h.curStart, baseEnd: h.curEnd, curStart: h.baseStart, curEnd: h.baseEnd };
      await applyOffsetEdits(document, [rejectEdit(c.proposal, c.file, swapped)]);
    }
    await this.check(p);
    return true;
  }

  /** Drops one hunk from the proposal: that region stays as the file has it. */
  async rejectHunk(p: Proposal, hunk: HunkRef): Promise<boolean> {
    const c = await this.compare(p);
    const h = findHunk(c.hunks, c.file, c.proposal, hunk);
    if (!h) return false;
    p.text = rejectHunk(c.file, c.proposal, h).join('');
    this.contentChanged.fire(p.uri);
    await this.check(p);
    return true;
  }

  async acceptAll(p: Proposal): Promise<void> {
    const c = await this.compare(p);
    if (c.hunks.length > 0) {
      await this.touch(p);
      if (!c.exists) await this.hooks.create(p, p.text);
      else await applyOffsetEdits(await vscode.workspace.openTextDocument(vscode.Uri.file(p.path)), editsBetween(c.file.join(''), p.text));
    }
    await this.check(p);
  }

  async rejectAll(p: Proposal): Promise<void> {
    const c = await this.compare(p);
    p.text = c.file.join('');
    this.contentChanged.fire(p.uri);
    await this.check(p);
  }

  /** Re-reads the file (the user edited it meanwhile) and settles the proposal when nothing is left to decide. */
  async check(p: Proposal): Promise<void> {
    if (!this.byId.has(p.id)) return;
    const c = await this.compare(p);
    this.contentChanged.fire(p.uri);
    this.changed.fire();
    if (c.hunks.length > 0) return;
    const now = c.exists ? c.file.join('') : null;
    const outcome: ProposalOutcome = now === p.original ? 'rejected' : now === p.proposed ? 'accepted' : 'partial';
    if (outcome !== 'rejected' && p.mode === 'ask' && !p.wasDirty) {
      const document = openDocument(p.path);
      if (document?.isDirty) await this.hooks.save(document);
    }
    this.finish(p, outcome);
  }

  dispose(): void {
    for (const p of this.list()) this.finish(p, 'cancelled');
    this.contentChanged.dispose();
    this.changed.dispose();
  }

  private async touch(p: Proposal): Promise<void> {
    if (this.touched.has(p.id)) return;
    this.touched.add(p.id);
    await this.hooks.beforeFirstChange(p);
  }

  private finish(p: Proposal, outcome: ProposalOutcome): void {
    if (!this.byId.delete(p.id)) return;
    this.touched.delete(p.id);
    p.settle(outcome);
    this.changed.fire();
    void closeTabsOf(p.uri);
  }
}

/** Closes the diff editors showing a settled proposal: there is nothing left in them to decide. */
async function closeTabsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === uri.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
}
