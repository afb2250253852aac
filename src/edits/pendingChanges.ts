import * as path from 'node:path';
import * as vscode from 'vscode';
import { sameTextIgnoringBomAndEol } from '../acp/compat';
import { decodeText, encodeText } from '../workspace/textCodec';
import type { BlobStore } from './blobStore';
import type { EditsState, OpaqueChange, ReviewEntry } from './editsState';
import { readCurrent, type Current } from './fileAccess';
import { computeHunks, countChanges, splitLines, type Hunk } from './hunks';

export type ChangeKind = 'modified' | 'created' | 'deleted';

/** One file in the pending-changes list, as the panel and the tree render it. */
export interface PendingChange {
  readonly uri: vscode.Uri;
  /** For display: relative to its workspace folder when inside one. */
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  readonly kind: ChangeKind;
  /** No text diff to show: why, and whether Reject can restore the exact bytes before. */
  readonly opaque?: { readonly why: string; readonly restorable: boolean };
}

/** A review's two sides now, and the hunks between them. */
export interface Comparison {
  readonly entry: ReviewEntry;
  /** null: the file did not exist before. */
  readonly baseline: string | null;
  readonly current: Current;
  readonly base: string[];
  readonly cur: string[];
  readonly hunks: Hunk[];
}

/**
 * The files the agent changed that the user has not decided on yet: baseline (kept in the blob store) against the
 * file as it is now. Counts are recomputed when either side changes; a file whose two sides agree again leaves the
 * list by itself (everything accepted or rejected, or the user undid the change). Owns the change event the panel,
 * the tree, CodeLens and the diff editors' left sides listen to.
 */
export class PendingChanges implements vscode.Disposable {
  private readonly counts = new Map<string, { added: number; removed: number; kind: ChangeKind }>();
  private readonly texts = new Map<string, string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private extras: { list(): PendingChange[] } | undefined;
  private readonly held = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly baselineChanged = new vscode.EventEmitter<string>();
  /** The list changed (a file came, went, or its counts moved). */
  readonly onDidChange = this.changed.event;
  /** A file's baseline changed (an accepted hunk): its diff editor's left side must be read again. */
  readonly onDidChangeBaseline = this.baselineChanged.event;

  constructor(
    private readonly state: EditsState,
    private readonly blobs: BlobStore,
    private readonly persist: () => void,
  ) {}

  /** Files under review, then agent writes waiting as proposals (their `uri` is the proposal's, for the commands). */
  list(): PendingChange[] {
    // A file shows once its counts are known (a moment after the change, never as a misleading "+0 −0").
    const reviews = [...this.state.reviews.keys()]
      .filter((fsPath) => this.counts.has(fsPath))
      .sort()
      .map((fsPath) => {
        const c = this.counts.get(fsPath)!;
        return { uri: vscode.Uri.file(fsPath), path: displayPath(fsPath), added: c.added, removed: c.removed, kind: c.kind };
      });
    const opaque = [...this.state.opaque.values()]
      .filter((o) => !this.state.reviews.has(o.path))
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((o) => ({
        uri: vscode.Uri.file(o.path),
        path: displayPath(o.path),
        added: 0,
        removed: 0,
        kind: o.kind,
        opaque: { why: o.why, restorable: o.baseline !== undefined },
      }));
    return [...reviews, ...opaque, ...(this.extras?.list() ?? [])];
  }

  /** A change with no text diff (see `OpaqueChange`); a text review of the same file, if any, wins. */
  opaque(fsPath: string): OpaqueChange | undefined {
    return this.state.opaque.get(fsPath);
  }

  addOpaque(change: OpaqueChange): void {
    if (this.state.reviews.has(change.path) || this.state.opaque.has(change.path)) return;
    this.state.opaque.set(change.path, change);
    this.persist();
    this.changed.fire();
  }

  removeOpaque(fsPath: string): boolean {
    if (!this.state.opaque.delete(fsPath)) return false;
    this.persist();
    this.changed.fire();
    return true;
  }

  opaquePaths(): string[] {
    return [...this.state.opaque.keys()];
  }

  get count(): number {
    return this.list().length;
  }

  /** Adds items from another source (proposals) to the list and its change event. */
  setExtras(source: { list(): PendingChange[]; onDidChange: vscode.Event<void> }): vscode.Disposable {
    this.extras = source;
    return source.onDidChange(() => this.changed.fire());
  }

  kindOf(fsPath: string): ChangeKind | undefined {
    return this.state.reviews.has(fsPath) ? (this.counts.get(fsPath)?.kind ?? 'modified') : undefined;
  }

  has(fsPath: string): boolean {
    return this.state.reviews.has(fsPath);
  }

  entry(fsPath: string): ReviewEntry | undefined {
    return this.state.reviews.get(fsPath);
  }

  paths(): string[] {
    return [...this.state.reviews.keys()];
  }

  /** The baseline's text (null: did not exist; undefined: not under review or its content is lost). */
  async baselineText(fsPath: string): Promise<string | null | undefined> {
    const entry = this.state.reviews.get(fsPath);
    if (!entry) return undefined;
    if (entry.baseline === null) return null;
    return this.textOf(entry.baseline, entry.format.encoding);
  }

  /** Synchronous, for CodeLens: the baseline text when it has been decoded before. */
  cachedBaselineText(fsPath: string): string | null | undefined {
    const entry = this.state.reviews.get(fsPath);
    if (!entry) return undefined;
    return entry.baseline === null ? null : this.texts.get(entry.baseline);
  }

  async textOf(ref: string, encoding: string): Promise<string | undefined> {
    const cached = this.texts.get(ref);
    if (cached !== undefined) return cached;
    const bytes = await this.blobs.get(ref);
    if (!bytes) return undefined;
    const text = decodeText(bytes, encoding).text;
    this.texts.set(ref, text);
    return text;
  }

  /** Starts reviewing a file. `refresh` false when the change is still to be written (ours): see `hold`. */
  async add(entry: ReviewEntry, refresh = true): Promise<void> {
    this.state.reviews.set(entry.path, entry);
    this.persist();
    if (refresh) await this.refresh(entry.path);
  }

  /**
   * While we write a file, its review must not be dropped for showing no difference yet: a refresh in between (a
   * document event, a timer) would otherwise see baseline = current and end it. Returns the release.
   */
  hold(fsPath: string): () => void {
    this.held.set(fsPath, (this.held.get(fsPath) ?? 0) + 1);
    return () => {
      const n = (this.held.get(fsPath) ?? 1) - 1;
      if (n <= 0) this.held.delete(fsPath);
      else this.held.set(fsPath, n);
      this.scheduleRefresh(fsPath, 0);
    };
  }

  remove(fsPath: string): void {
    if (!this.state.reviews.delete(fsPath)) return;
    this.counts.delete(fsPath);
    this.persist();
    this.changed.fire();
  }

  /** Accepting folds text into the baseline: stored in the baseline's own format so a later reject writes it back. */
  async setBaselineText(fsPath: string, text: string): Promise<void> {
    const entry = this.state.reviews.get(fsPath);
    if (!entry) return;
    const ref = this.blobs.put(encodeText(text, entry.format));
    this.texts.set(ref, text);
    entry.baseline = ref;
    entry.decided = true;
    this.persist();
    this.baselineChanged.fire(fsPath);
    await this.refresh(fsPath);
  }

  /** Replaces a baseline with a better one found later in the same turn (only before any decision). */
  replaceBaseline(fsPath: string, ref: string | null, source: ReviewEntry['source']): void {
    const entry = this.state.reviews.get(fsPath);
    if (!entry || entry.decided) return;
    entry.baseline = ref;
    entry.source = source;
    this.persist();
    this.baselineChanged.fire(fsPath);
    this.scheduleRefresh(fsPath);
  }

  async compare(fsPath: string): Promise<Comparison | undefined> {
    const entry = this.state.reviews.get(fsPath);
    if (!entry) return undefined;
    const baseline = entry.baseline === null ? null : await this.textOf(entry.baseline, entry.format.encoding);
    if (baseline === undefined) return undefined;
    const current = await readCurrent(fsPath);
    const base = splitLines(baseline ?? '');
    const cur = splitLines(current.exists ? current.text : '');
    return { entry, baseline, current, base, cur, hunks: computeHunks(base, cur) };
  }

  /** Recomputes a file's counts; a file whose sides agree leaves the list. */
  async refresh(fsPath: string): Promise<void> {
    const c = await this.compare(fsPath);
    if (!c) {
      if (this.state.reviews.has(fsPath) && this.state.reviews.get(fsPath)!.baseline !== null) {
        // The baseline's content is gone (storage deleted): nothing can be shown or restored.
        this.remove(fsPath);
      }
      return;
    }
    if (c.current.unreadable) return;
    const existed = c.baseline !== null;
    const sameText = existed === c.current.exists && c.baseline === (c.current.exists ? c.current.text : null);
    const sameFormat = !c.current.disk || !existed || sameFormatAs(c.entry, c.current);
    if (sameText && (sameFormat || !c.current.exists)) {
      // An open editor that has not reloaded the disk yet (the agent wrote a moment ago) still shows the old text:
      // ask again once it has, rather than end the review on what it showed.
      if (c.current.disk && !sameTextIgnoringBomAndEol(c.current.disk.text, c.current.text)) return this.scheduleRefresh(fsPath, 300);
      if (!this.held.has(fsPath)) this.remove(fsPath);
      return;
    }
    const kind: ChangeKind = !existed ? 'created' : !c.current.exists ? 'deleted' : 'modified';
    const counts = { ...countChanges(c.hunks), kind };
    const before = this.counts.get(fsPath);
    this.counts.set(fsPath, counts);
    if (!before || before.added !== counts.added || before.removed !== counts.removed || before.kind !== counts.kind) this.changed.fire();
  }

  /** Coalesces bursts (typing in a reviewed file, a watcher storm) into one recomputation per file. */
  scheduleRefresh(fsPath: string, delayMs = 150): void {
    clearTimeout(this.timers.get(fsPath));
    this.timers.set(
      fsPath,
      setTimeout(() => {
        this.timers.delete(fsPath);
        void this.refresh(fsPath);
      }, delayMs),
    );
  }

  async refreshAll(): Promise<void> {
    for (const fsPath of this.paths()) await this.refresh(fsPath);
    this.changed.fire();
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.changed.dispose();
    this.baselineChanged.dispose();
  }
}

function sameFormatAs(entry: ReviewEntry, current: Current): boolean {
  const f = current.disk!.format;
  return f.encoding === entry.format.encoding && f.bom === entry.format.bom;
}

export function displayPath(fsPath: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(fsPath));
  if (!folder) return fsPath;
  const rel = path.relative(folder.uri.fsPath, fsPath);
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
}
