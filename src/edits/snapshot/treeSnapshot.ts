import type { BigIntStats } from 'node:fs';
import * as path from 'node:path';
import { SnapshotBlobs } from './blobs';
import { Manifest } from './manifest';
import { eachLimited } from './pace';
import { loadCache, saveCache } from './persist';
import { readFileRecord, readLinkRecord, statKey } from './reader';
import { ExclusionRules } from './rules';
import { DEFAULT_SNAPSHOT_EXCLUDES, emptyStats, type ExcludeReason, type FileRecord, type SnapshotOptions, type SnapshotStats, type StatKey } from './types';
import { walk, type GitignoreCache } from './walk';

/**
 * A file whose mtime is this close to the start of the refresh that recorded it may have been rewritten within
 * the same timestamp tick, same size and all (git's "racy git"): it is read again next time even if its stat looks
 * unchanged. 2 s covers the coarsest common file systems (FAT); few files are ever that fresh, so it costs little.
 */
const RACY_MS = 2000;
const READ_CONCURRENCY = 8;

/**
 * The turn snapshot of a session's roots: before each prompt, `refresh()` records every file's exact bytes, so any
 * file the agent changes during the turn, by whatever means, has its previous content. A stat cache decides what
 * must be read (size, mtime in ns, ctime, inode, mode all equal and not racy → kept); content goes to a private
 * content-addressed store under `storeDir`. Never reads, writes or stats inside a `.git`. Plain Node; all file-system
 * work is asynchronous with bounded concurrency, and synchronous loops give way every few milliseconds.
 */
export class TreeSnapshot {
  private readonly roots: string[];
  private readonly storeDir: string;
  private readonly maxFileBytes: number;
  private readonly maxTotalBytes: number;
  private readonly concurrency: number;
  private readonly rules: ExclusionRules;
  private readonly blobs: SnapshotBlobs;
  private readonly gitignores: GitignoreCache = new Map();
  private readonly log: (line: string) => void;
  private latest: Manifest | undefined;
  /** The stat cache saved by an earlier instance, until the first refresh replaces it. */
  private loaded: Promise<{ startedAt: number; files: ReadonlyMap<string, FileRecord> }> | undefined;
  private dirty = new Set<string>();
  private running: Promise<Manifest> | undefined;
  /** Refreshes and collections run one at a time: a collection must not delete what a refresh just stored. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();
  private lastStats: SnapshotStats = emptyStats();

  constructor(options: SnapshotOptions) {
    this.roots = [...new Set(options.roots.map((r) => stripSep(path.resolve(r))))];
    this.storeDir = path.resolve(options.storeDir);
    this.maxFileBytes = options.maxFileBytes ?? 16 * 1024 * 1024;
    this.maxTotalBytes = options.maxTotalBytes ?? 1024 * 1024 * 1024;
    this.concurrency = options.concurrency ?? 32;
    this.rules = new ExclusionRules(options.exclude ?? DEFAULT_SNAPSHOT_EXCLUDES, options.respectGitignore ?? true, this.storeDir);
    this.blobs = new SnapshotBlobs(path.join(this.storeDir, 'blobs'));
    this.log = options.log ?? (() => undefined);
  }

  /** The manifest of the last refresh, if any. */
  get current(): Manifest | undefined {
    return this.latest;
  }

  /** Records the roots as they are now. Calls made while one runs share it. */
  refresh(): Promise<Manifest> {
    this.running ??= this.serially(() => this.run()).finally(() => (this.running = undefined));
    return this.running;
  }

  /** The next refresh reads this file (or every file under this folder) even if its stat looks unchanged. */
  markDirty(absPath: string): void {
    this.dirty.add(stripSep(path.resolve(absPath)));
  }

  /** Stored content by hash, verified: undefined when missing or damaged. */
  read(hash: string): Promise<Buffer | undefined> {
    return this.blobs.read(hash);
  }

  /** Deletes blobs neither the current manifest nor `keep` refers to. Returns how many were deleted. */
  collect(keep: ReadonlySet<string>): Promise<number> {
    return this.serially(async () => {
      const held = this.latest ? this.latest.hashes() : hashesOf((await this.previous()).files);
      return this.blobs.collect((h) => held.has(h) || keep.has(h));
    });
  }

  /** Waits until the stat cache of the last refresh is on disk. */
  flush(): Promise<void> {
    return this.saving;
  }

  /** What the last refresh did. */
  stats(): SnapshotStats {
    return { ...this.lastStats, skipped: { ...this.lastStats.skipped } };
  }

  private serially<T>(job: () => Promise<T>): Promise<T> {
    const result = this.exclusive.then(job);
    this.exclusive = result.catch(() => undefined);
    return result;
  }

  private previous(): Promise<{ startedAt: number; files: ReadonlyMap<string, FileRecord> }> {
    this.loaded ??= loadCache(this.storeDir, this.log).then((c) => c ?? { startedAt: 0, files: new Map() });
    return this.loaded;
  }

  private async run(): Promise<Manifest> {
    const t0 = performance.now();
    const startedAt = Date.now();
    const stats = emptyStats();
    const prev = this.latest ? { startedAt: this.latest.startedAt, files: this.latest.files } : await this.previous();
    await this.blobs.open(() => hashesOf(prev.files));
    const dirty = this.dirty;
    this.dirty = new Set();
    const racyFrom = BigInt(Math.floor(prev.startedAt - RACY_MS)) * 1_000_000n;

    const files = new Map<string, FileRecord>();
    const counted = new Set<string>();
    const toRead: Array<{ abs: string; stat: StatKey; link: boolean }> = [];
    const overTotal: Array<{ abs: string; old: FileRecord }> = [];
    const excludedDirs = new Map<string, ExcludeReason>();
    const unreadableDirs = new Map<string, string>();
    const keep = (abs: string, record: FileRecord): void => {
      files.set(abs, record);
      if (record.kind === 'file' && !counted.has(record.hash)) {
        counted.add(record.hash);
        stats.totalBytes += record.stat.size;
      }
    };

    const ignores = await walk(
      { roots: this.roots, rules: this.rules, concurrency: this.concurrency, gitignores: this.gitignores },
      {
        entry: (abs, st) => {
          stats.filesSeen++;
          const old = prev.files.get(abs);
          if (old && unchanged(old.stat, st) && st.mtimeNs < racyFrom && !(dirty.size && isDirty(dirty, abs))) {
            if (old.kind === 'skipped' && old.reason === 'over-total') overTotal.push({ abs, old });
            else keep(abs, old);
            return;
          }
          toRead.push({ abs, stat: statKey(st), link: st.isSymbolicLink() });
        },
        excludedDir: (abs, reason) => excludedDirs.set(abs, reason),
        unreadableDir: (abs, code) => {
          unreadableDirs.set(abs, code);
          this.log(`snapshot: cannot list ${abs} (${code})`);
        },
      },
    );
    stats.walkMs = performance.now() - t0;

    // Content skipped for the total cap is tried again only when there is room for it now.
    for (const { abs, old } of overTotal) {
      if (stats.totalBytes + old.stat.size <= this.maxTotalBytes) toRead.push({ abs, stat: old.stat, link: false });
      else keep(abs, old);
    }
    const limits = {
      maxFileBytes: this.maxFileBytes,
      admit: (hash: string, size: number): boolean => {
        if (counted.has(hash)) return true;
        if (stats.totalBytes + size > this.maxTotalBytes) return false;
        counted.add(hash);
        stats.totalBytes += size;
        return true;
      },
    };
    const read = new Map<string, FileRecord>();
    await eachLimited(toRead, READ_CONCURRENCY, async ({ abs, stat, link }) => {
      if (link) {
        read.set(abs, await readLinkRecord(abs, stat));
        return;
      }
      const outcome = await readFileRecord(abs, stat, this.blobs, limits);
      if (outcome.bytesRead) stats.filesRead++;
      stats.bytesRead += outcome.bytesRead;
      if (outcome.bytesStored) {
        stats.blobsWritten++;
        stats.bytesStored += outcome.bytesStored;
      }
      read.set(abs, outcome.record);
    });
    for (const { abs } of toRead) files.set(abs, read.get(abs)!);
    for (const record of files.values()) {
      if (record.kind === 'skipped') stats.skipped[record.reason]++;
      else if (record.kind === 'symlink') stats.symlinks++;
    }
    stats.excludedDirs = excludedDirs.size;
    stats.readMs = performance.now() - t0 - stats.walkMs;

    const manifest = new Manifest({ roots: this.roots, files, excludedDirs, unreadableDirs, ignores, rules: this.rules, startedAt });
    const changed = toRead.length > 0 || files.size !== prev.files.size;
    this.latest = manifest;
    this.loaded = undefined;
    if (changed) {
      this.saving = this.saving
        .then(() => saveCache(this.storeDir, this.roots, startedAt, files))
        .catch((error: Error) => this.log(`snapshot: could not save the stat cache (${error.message})`));
    }
    stats.durationMs = performance.now() - t0;
    this.lastStats = stats;
    return manifest;
  }
}

/** Equal stats (lstat's, compared without building a key) mean the record still holds. */
function unchanged(s: StatKey, st: BigIntStats): boolean {
  return s.mtimeNs === st.mtimeNs && s.ctimeNs === st.ctimeNs && s.ino === st.ino && s.size === Number(st.size) && s.mode === Number(st.mode);
}

function isDirty(dirty: ReadonlySet<string>, abs: string): boolean {
  for (let p = abs; ; ) {
    if (dirty.has(p)) return true;
    const parent = path.dirname(p);
    if (parent === p) return false;
    p = parent;
  }
}

function hashesOf(files: ReadonlyMap<string, FileRecord>): Set<string> {
  const out = new Set<string>();
  for (const r of files.values()) if (r.kind === 'file') out.add(r.hash);
  return out;
}

function stripSep(p: string): string {
  return p.length > 1 && p.endsWith(path.sep) && path.parse(p).root !== p ? p.slice(0, -1) : p;
}
