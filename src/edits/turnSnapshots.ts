import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_SNAPSHOT_EXCLUDES, TreeSnapshot, type Lookup, type Manifest, type SnapshotOptions } from './snapshot';

export { PROMPT_WAIT_MS } from './snapshot';

const MB = 1024 * 1024;
/** How long after a file changes its root is refreshed in the background (changes in a burst make one refresh). */
const BACKGROUND_REFRESH_MS = 3000;
/**
 * How long after a session opens `prepare` starts its roots' snapshot. The window is then delivering the new session
 * to the panel, and the first snapshot starts a worker thread and walks the roots: on 2 cores the two competed. The
 * first New Session of a fresh window in the real one (stream bench, 8 windows each, alternating builds): agent
 * answered → panel ready 62–116 ms, over 100 ms in 3, started at once; 45–74 ms started this much later.
 */
const PREPARE_DELAY_MS = 300;

/** The roots' content before one turn: per root, the manifest the turn waited for and the one before it. */
export interface TurnBefore {
  readonly manifests: ReadonlyMap<string, Manifest>;
  readonly previous: ReadonlyMap<string, Manifest | undefined>;
  /**
   * The prompt went out before the snapshot was done: a file the agent changed meanwhile may have been read after
   * the change, so only records that had not changed since the previous snapshot are trusted.
   */
  late: boolean;
}

/** What the snapshot says a file held before the turn. */
export type RecordedBefore =
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unrecorded'; readonly why: string }
  /** Outside every root, no snapshot, or a late record that cannot be trusted: ask the other sources. */
  | { readonly kind: 'unknown' };

/**
 * The snapshots of the session's roots, one per root folder, shared by every session working there, in the
 * extension's storage. Settings (`howdah.snapshot.*`, `files.watcherExclude`) are read when a root is first
 * snapshotted and again when they change (the root's snapshot then starts over). Watcher events mark paths to read
 * again; `capture` is what a turn waits for before its prompt is sent.
 */
export class TurnSnapshots implements vscode.Disposable {
  private readonly roots = new Map<string, { snapshot: TreeSnapshot; running?: Promise<Manifest>; idle?: ReturnType<typeof setTimeout> }>();
  /** Turn snapshots still in use: their contents must outlive later refreshes. */
  private readonly held = new Set<TurnBefore>();
  /** Snapshots `prepare` will start (see PREPARE_DELAY_MS). */
  private readonly preparing = new Set<ReturnType<typeof setTimeout>>();
  /** Roots `prepare` started snapshotting, in all (the tests read it). */
  prepared = 0;
  /** Calls of `prepare` whose snapshots have not started yet (the tests read it). */
  get waitingToPrepare(): number {
    return this.preparing.size;
  }
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly storeDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('howdah.snapshot') || e.affectsConfiguration('files.watcherExclude')) this.forgetRoots();
    });
  }

  static enabled(): boolean {
    return vscode.workspace.getConfiguration('howdah.snapshot').get<boolean>('enabled', true);
  }

  /**
   * Starts snapshotting these roots in the background a moment from now (a session opened: PREPARE_DELAY_MS), so the
   * first turn waits for little. A prompt sent sooner takes its snapshot itself (`capture`).
   */
  prepare(roots: readonly string[]): void {
    if (!TurnSnapshots.enabled()) return;
    const later = [...roots];
    const timer = setTimeout(() => {
      this.preparing.delete(timer);
      for (const root of later) {
        this.prepared++;
        void this.refresh(root).catch((e: unknown) => this.log(`Snapshot of ${root} failed: ${String(e)}`));
      }
    }, PREPARE_DELAY_MS);
    this.preparing.add(timer);
  }

  /**
   * Marks a changed path to be read again by the next refresh of its root, and refreshes that root a moment later in
   * the background: the snapshot a prompt waits for then has little left to read, and a late one (see
   * `TurnBefore.late`) can trust almost every record.
   */
  markDirty(fsPath: string): void {
    for (const [root, entry] of this.roots) {
      if (!inside(root, fsPath)) continue;
      entry.snapshot.markDirty(fsPath);
      entry.idle ??= setTimeout(() => {
        entry.idle = undefined;
        if (this.roots.get(root) === entry && !entry.running) void this.refresh(root).catch(() => undefined);
      }, BACKGROUND_REFRESH_MS);
    }
  }

  /** A fresh snapshot of the roots, kept until `release`. Undefined when snapshots are off. */
  async capture(roots: readonly string[]): Promise<TurnBefore | undefined> {
    if (!TurnSnapshots.enabled()) return undefined;
    const manifests = new Map<string, Manifest>();
    const previous = new Map<string, Manifest | undefined>();
    await Promise.all(
      roots.map(async (root) => {
        // A refresh already under way may have passed a file the user saved since: wait for it, then take another.
        await this.roots.get(root)?.running?.catch(() => undefined);
        previous.set(root, this.roots.get(root)?.snapshot.current);
        manifests.set(root, await this.refresh(root));
      }),
    );
    const before: TurnBefore = { manifests, previous, late: false };
    this.held.add(before);
    return before;
  }

  /** The turn is over: its snapshot's contents may go once no later one refers to them. */
  release(before: TurnBefore | undefined): void {
    if (!before || !this.held.delete(before)) return;
    const keep = new Set<string>();
    for (const held of this.held) for (const m of held.manifests.values()) for (const h of m.hashes()) keep.add(h);
    for (const { snapshot } of this.roots.values()) void snapshot.collect(keep).catch(() => undefined);
  }

  /** What `fsPath` held when the turn's snapshot was taken. */
  async before(turn: TurnBefore, fsPath: string): Promise<RecordedBefore> {
    const root = [...turn.manifests.keys()].filter((r) => inside(r, fsPath)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) return { kind: 'unknown' };
    const lookup = turn.manifests.get(root)!.lookup(fsPath);
    if (turn.late && !sameLookup(lookup, turn.previous.get(root)?.lookup(fsPath))) return { kind: 'unknown' };
    switch (lookup.kind) {
      case 'file': {
        const bytes = await this.roots.get(root)?.snapshot.read(lookup.hash);
        return bytes ? { kind: 'bytes', bytes } : { kind: 'unrecorded', why: vscode.l10n.t('original not recorded (its stored copy is missing)') };
      }
      case 'absent':
        return { kind: 'absent' };
      case 'outside':
        return { kind: 'unknown' };
      default:
        return { kind: 'unrecorded', why: whyUnrecorded(lookup) };
    }
  }

  /**
   * Every change between the turn's snapshot and a fresh one of the same roots (the end-of-turn sweep), with the
   * file's modification time now (ms; none for a deleted file), so a change made after the turn is told apart.
   */
  async changesSince(turn: TurnBefore): Promise<{ path: string; change: 'created' | 'modified' | 'deleted'; mtimeMs?: number }[]> {
    const changes: { path: string; change: 'created' | 'modified' | 'deleted'; mtimeMs?: number }[] = [];
    for (const [root, before] of turn.manifests) {
      const now = await this.refresh(root);
      for (const c of now.changesSince(before)) {
        const record = now.record(c.path);
        // A symbolic link is not followed, so it is never a change to review (its target may be anywhere).
        if (record?.kind === 'symlink' || before.record(c.path)?.kind === 'symlink') continue;
        changes.push(record ? { ...c, mtimeMs: Number(record.stat.mtimeNs / 1_000_000n) } : c);
      }
    }
    return changes;
  }

  dispose(): void {
    for (const timer of this.preparing) clearTimeout(timer);
    this.preparing.clear();
    this.subscription.dispose();
    this.forgetRoots();
    this.held.clear();
  }

  /** Settings changed, or the end: each root's snapshot starts over (its stat cache stays on disk), workers stop. */
  private forgetRoots(): void {
    for (const { snapshot, running, idle } of this.roots.values()) {
      clearTimeout(idle);
      if (running) void running.finally(() => snapshot.dispose()).catch(() => undefined);
      else snapshot.dispose();
    }
    this.roots.clear();
  }

  private refresh(root: string): Promise<Manifest> {
    let entry = this.roots.get(root);
    if (!entry) {
      entry = { snapshot: new TreeSnapshot(this.options(root)) };
      this.roots.set(root, entry);
    }
    const current = entry;
    const running = current.snapshot.refresh();
    current.running = running;
    void running
      .then((m) => this.log(`Snapshot of ${root}: ${m.size} files (${describeStats(current.snapshot)})`))
      .catch(() => undefined)
      .finally(() => {
        if (current.running === running) current.running = undefined;
      });
    return running;
  }

  private options(root: string): SnapshotOptions {
    const config = vscode.workspace.getConfiguration('howdah.snapshot', vscode.Uri.file(root));
    const watcherExclude = vscode.workspace.getConfiguration('files', vscode.Uri.file(root)).get<Record<string, boolean>>('watcherExclude') ?? {};
    const exclude = [...(config.get<string[]>('exclude') ?? [...DEFAULT_SNAPSHOT_EXCLUDES]), ...Object.keys(watcherExclude).filter((k) => watcherExclude[k])];
    return {
      roots: [root],
      storeDir: path.join(this.storeDir, createHash('sha256').update(root).digest('hex').slice(0, 16)),
      maxFileBytes: Math.max(0, config.get<number>('maxFileSize', 16)) * MB,
      maxTotalBytes: Math.max(0, config.get<number>('maxTotalSize', 1024)) * MB,
      exclude,
      respectGitignore: config.get<boolean>('respectGitignore', true),
      log: this.log,
    };
  }
}

function inside(root: string, fsPath: string): boolean {
  return fsPath === root || fsPath.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Same content in both lookups (a late snapshot's record is trusted only when it had not changed). */
function sameLookup(a: Lookup, b: Lookup | undefined): boolean {
  if (!b || a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash;
  return a.kind === 'absent';
}

function whyUnrecorded(lookup: Lookup): string {
  switch (lookup.kind) {
    case 'skipped':
      if (lookup.reason === 'too-large') return vscode.l10n.t('original not recorded ({0}, over howdah.snapshot.maxFileSize)', size(lookup.size));
      if (lookup.reason === 'over-total') return vscode.l10n.t('original not recorded (the snapshot was full: howdah.snapshot.maxTotalSize)');
      return lookup.detail ? vscode.l10n.t('original not recorded (unreadable: {0})', lookup.detail) : vscode.l10n.t('original not recorded (unreadable)');
    case 'excluded':
      if (lookup.reason === 'gitignored') return vscode.l10n.t('original not recorded (ignored by .gitignore)');
      if (lookup.reason === 'git-dir') return vscode.l10n.t('original not recorded (inside .git, which Howdah never reads)');
      return vscode.l10n.t('original not recorded (excluded by howdah.snapshot.exclude or files.watcherExclude)');
    case 'symlink':
      return vscode.l10n.t('original not recorded (a symbolic link)');
    default:
      return vscode.l10n.t('original not recorded');
  }
}

function size(bytes: number | undefined): string {
  if (bytes === undefined) return vscode.l10n.t('too large');
  return bytes >= MB ? vscode.l10n.t('{0} MB', (bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)) : vscode.l10n.t('{0} KB', Math.ceil(bytes / 1024));
}

function describeStats(snapshot: TreeSnapshot): string {
  const s = snapshot.stats();
  return `${s.filesRead} read, ${Math.round(s.bytesStored / 1024)} KB stored, ${Math.round(s.durationMs)} ms`;
}
