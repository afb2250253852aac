/** The shapes the turn snapshot works with. Plain Node: nothing in src/edits/snapshot imports `vscode`. */

export interface SnapshotOptions {
  /** Absolute folders to record (the session's roots). A root inside another is walked as its own root. */
  roots: string[];
  /** Where blobs and the stat cache go (the extension's storage, never the workspace). Skipped if inside a root. */
  storeDir: string;
  /** Files larger than this are recorded by their stat only (`skipped: 'too-large'`). Default 16 MiB. */
  maxFileBytes?: number;
  /** Once the content a manifest holds reaches this, new content is `skipped: 'over-total'`. Default 1 GiB. */
  maxTotalBytes?: number;
  /** Globs like VS Code's `files.watcherExclude` keys, matched against the path relative to its root (`/`). */
  exclude?: string[];
  /** Whether every `.gitignore` in the tree applies to its folder and below. `.git/info/exclude` is never read. */
  respectGitignore?: boolean;
  log?: (line: string) => void;
  /** In-process engine only: how many fs calls may be outstanding at once (libuv has 4 threads). Default 32. */
  concurrency?: number;
  /**
   * The worker thread's script (the bundled `walkWorker.ts`). Default: `snapshotWalker.js` beside this bundle
   * (out/ in the .vsix). `false`, or a script that is missing or fails: everything runs on this thread instead.
   */
  workerScript?: string | false;
  /** Tests: the worker reports every path it passes to the file system (`TreeSnapshot.touched`). */
  traceFs?: boolean;
}

/**
 * What `exclude` should usually hold: folders whose content is rebuilt, not written by hand, and big enough to
 * matter. Each costs nothing to skip and would cost a lot to copy.
 * - node_modules: installed packages, often 10⁵ files; `npm ci` restores them.
 * - .git: already never entered whatever the options; listed so the caller's own uses of the list see it.
 * - .hg, .svn: other version-control stores (never our business either).
 * - __pycache__, .venv: Python bytecode and virtual environments (pip restores them).
 * - .gradle, .next, .nuxt, .turbo, .parcel-cache, .cache: build tools' caches, rebuilt on the next build.
 * Build output folders (dist, build, out, target) are not listed: names too common to skip unasked; they are usually
 * in a `.gitignore`, which `respectGitignore` honours.
 */
export const DEFAULT_SNAPSHOT_EXCLUDES: readonly string[] = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.hg/**',
  '**/.svn/**',
  '**/__pycache__/**',
  '**/.venv/**',
  '**/.gradle/**',
  '**/.next/**',
  '**/.nuxt/**',
  '**/.turbo/**',
  '**/.parcel-cache/**',
  '**/.cache/**',
];

export type SkipReason = 'too-large' | 'over-total' | 'unreadable';
export type ExcludeReason = 'excluded' | 'gitignored' | 'git-dir';

/** The stat fields that, all equal, let a file keep its record without being read again. */
export interface StatKey {
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly mode: number;
}

/** One recorded path. Records are frozen and shared between manifests. */
export type FileRecord =
  | { readonly kind: 'file'; readonly stat: StatKey; readonly hash: string }
  | { readonly kind: 'skipped'; readonly stat: StatKey; readonly reason: SkipReason; readonly detail?: string }
  /** A symbolic link, not followed: its target is kept, so a deleted or replaced link can be made again. */
  | { readonly kind: 'symlink'; readonly stat: StatKey; readonly target: string };

export type Lookup =
  | { kind: 'file'; hash: string; size: number }
  | { kind: 'skipped'; reason: SkipReason; detail?: string; size?: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'excluded'; reason: ExcludeReason }
  /** Inside a root, not excluded, and nothing there when the snapshot was taken. */
  | { kind: 'absent' }
  | { kind: 'outside' };

export interface Change {
  path: string;
  change: 'created' | 'modified' | 'deleted';
}

export interface SnapshotStats {
  filesSeen: number;
  filesRead: number;
  bytesRead: number;
  bytesStored: number;
  blobsWritten: number;
  skipped: Record<SkipReason, number>;
  symlinks: number;
  excludedDirs: number;
  /** Bytes of distinct content the manifest refers to (what `maxTotalBytes` caps). */
  totalBytes: number;
  walkMs: number;
  readMs: number;
  durationMs: number;
}

export function emptyStats(): SnapshotStats {
  return {
    filesSeen: 0,
    filesRead: 0,
    bytesRead: 0,
    bytesStored: 0,
    blobsWritten: 0,
    skipped: { 'too-large': 0, 'over-total': 0, unreadable: 0 },
    symlinks: 0,
    excludedDirs: 0,
    totalBytes: 0,
    walkMs: 0,
    readMs: 0,
    durationMs: 0,
  };
}

export function sameStat(a: StatKey, b: StatKey): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode;
}

/** The record's size in bytes (for a symlink, its target's length, as lstat reports). */
export function recordSize(r: FileRecord): number {
  return r.stat.size;
}

/** The longest a prompt waits for its turn's snapshot before it is sent anyway (the snapshot then counts as late). */
export const PROMPT_WAIT_MS = 200;
