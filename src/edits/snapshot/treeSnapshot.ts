import * as fs from 'node:fs';
import * as path from 'node:path';
import { SnapshotBlobs } from './blobs';
import { isDirty } from './candidates';
import type { Engine, ReadItem, ReadLimits, WalkRequest } from './engine';
import { InProcessEngine } from './inProcessEngine';
import { Manifest } from './manifest';
import { Pacer } from './pace';
import { loadCache, saveCache } from './persist';
import { ExclusionRules } from './rules';
import { DEFAULT_SNAPSHOT_EXCLUDES, emptyStats, type FileRecord, type SnapshotOptions, type SnapshotStats } from './types';
import { WorkerEngine } from './workerEngine';

/**
 * A file whose mtime is this close to the start of the refresh that recorded it may have been rewritten within
 * the same timestamp tick, same size and all (git's "racy git"): it is read again next time even if its stat looks
 * unchanged. 2 s covers the coarsest common file systems (FAT); few files are ever that fresh, so it costs little.
 */
const RACY_MS = 2000;

type Previous = { startedAt: number; files: ReadonlyMap<string, FileRecord> };

/**
 * The turn snapshot of a session's roots: before each prompt, `refresh()` records every file's exact bytes, so any
 * file the agent changes during the turn, by whatever means, has its previous content. A stat cache decides what
 * must be read (size, mtime in ns, ctime, inode, mode all equal and not racy → kept); content goes to a private
 * content-addressed store under `storeDir`. Never reads, writes or stats inside a `.git`. The file-system work runs
 * in a worker thread (see `Engine`); this thread only decides and keeps manifests. Plain Node.
 */
export class TreeSnapshot {
  private readonly roots: string[];
  private readonly storeDir: string;
  private readonly maxFileBytes: number;
  private readonly maxTotalBytes: number;
  private readonly rules: ExclusionRules;
  private readonly blobs: SnapshotBlobs;
  private readonly log: (line: string) => void;
  private engine: Engine | undefined;
  /** The engine remembers exactly the paths of `latest` (so it may answer with changes only). */
  private inSync = false;
  private latest: Manifest | undefined;
  /** The stat cache saved by an earlier instance, until the first refresh replaces it. */
  private loaded: Promise<Previous> | undefined;
  private dirty = new Set<string>();
  private running: Promise<Manifest> | undefined;
  /** Refreshes and collections run one at a time: a collection must not delete what a refresh just stored. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();
  private lastStats: SnapshotStats = emptyStats();

  constructor(private readonly options: SnapshotOptions) {
    this.roots = [...new Set(options.roots.map((r) => stripSep(path.resolve(r))))];
    this.storeDir = path.resolve(options.storeDir);
    this.maxFileBytes = options.maxFileBytes ?? 16 * 1024 * 1024;
    this.maxTotalBytes = options.maxTotalBytes ?? 1024 * 1024 * 1024;
    this.rules = new ExclusionRules(options.exclude ?? DEFAULT_SNAPSHOT_EXCLUDES, options.respectGitignore ?? true, this.storeDir);
    this.blobs = new SnapshotBlobs(path.join(this.storeDir, 'blobs'));
    this.log = options.log ?? (() => undefined);
  }

  /** The manifest of the last refresh, if any. */
  get current(): Manifest | undefined {
    return this.latest;
  }

  /** Which engine the last refresh used. */
  get engineKind(): Engine['kind'] | undefined {
    return this.engine?.kind;
  }

  /** Tests (`traceFs`): every path the worker passed to the file system so far. */
  get touched(): readonly string[] {
    return this.engine instanceof WorkerEngine ? this.engine.touched : [];
  }

  /** Records the roots as they are now. Calls made while one runs share it. */
  refresh(): Promise<Manifest> {
    this.running ??= this.serially(() => this.attempt()).finally(() => (this.running = undefined));
    return this.running;
  }

  /** A refresh that fails keeps its dirty marks for the next one. */
  private async attempt(): Promise<Manifest> {
    const dirty = this.dirty;
    try {
      return await this.run();
    } catch (error) {
      for (const d of dirty) this.dirty.add(d);
      throw error;
    }
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

  /** Stops the worker thread. The snapshot stays usable: a later refresh starts one again. */
  dispose(): void {
    this.engine?.close();
    this.engine = undefined;
    this.inSync = false;
  }

  /** What the last refresh did, and what its manifest holds. */
  stats(): SnapshotStats {
    const tally = this.latest?.tally();
    return { ...this.lastStats, totalBytes: tally?.contentBytes ?? 0, symlinks: tally?.symlinks ?? 0, skipped: { ...(tally?.skipped ?? emptyStats().skipped) } };
  }

  private serially<T>(job: () => Promise<T>): Promise<T> {
    const result = this.exclusive.then(job);
    this.exclusive = result.catch(() => undefined);
    return result;
  }

  private previous(): Promise<Previous> {
    this.loaded ??= loadCache(this.storeDir, this.log).then((c) => c ?? { startedAt: 0, files: new Map() });
    return this.loaded;
  }

  private async run(): Promise<Manifest> {
    const t0 = performance.now();
    const startedAt = Date.now();
    const stats = emptyStats();
    const prev: Previous = this.latest ?? (await this.previous());
    this.blobs.seed(() => hashesOf(prev.files));
    const dirty = this.dirty;
    this.dirty = new Set();
    const racyFromNs = BigInt(Math.floor(prev.startedAt - RACY_MS)) * 1_000_000n;
    const request: WalkRequest = { full: !this.inSync || !this.latest, racyFromNs, dirty: [...dirty] };
    this.inSync = false;
    const walked = await this.withEngine((e) => e.walk(request), () => (request.full = true));
    stats.walkMs = performance.now() - t0;

    // Which entries keep their record, which must be read.
    const pacer = new Pacer();
    const c = walked.candidates;
    const toRead: ReadItem[] = [];
    const overTotal: ReadItem[] = [];
    let files: Map<string, FileRecord> | undefined = walked.full ? new Map() : undefined;
    for (let i = 0; i < c.length; i++) {
      const abs = c.paths[i];
      const old = prev.files.get(abs);
      if (old && c.sameAs(i, old.stat) && c.mtimeNs(i) < racyFromNs && !isDirty(dirty, abs)) {
        if (old.kind === 'skipped' && old.reason === 'over-total') overTotal.push({ abs, stat: old.stat, link: false });
        else files?.set(abs, old);
      } else toRead.push({ abs, stat: c.stat(i), link: c.isLink(i) });
      if (pacer.due()) await pacer.pause();
    }
    const prevOverTotal = prev instanceof Manifest ? prev.overTotal : undefined;
    if (!walked.full && prevOverTotal) {
      const rereading = new Set(toRead.map((t) => t.abs));
      for (const [abs, r] of prev.files) if (r.kind === 'skipped' && r.reason === 'over-total' && !rereading.has(abs)) overTotal.push({ abs, stat: r.stat, link: false });
    }
    // Incremental: the last manifest's map, shared when nothing changed, else copied and patched.
    const unchanged = !walked.full && !toRead.length && !overTotal.length && !walked.deleted.length;
    if (!files) {
      files = unchanged ? (prev.files as Map<string, FileRecord>) : new Map(prev.files);
      for (const d of walked.deleted) files.delete(d);
    }

    const prevBound = prev instanceof Manifest ? prev.contentBound : Infinity;
    const { limits, bound } = toRead.length || overTotal.length ? await this.limits(files, toRead, overTotal, prevBound) : { limits: undefined, bound: prevBound };
    const outcomes = limits && toRead.length ? await this.withEngine((e) => e.read(toRead, limits)) : [];
    for (const o of outcomes) {
      files.set(o.abs, o.record);
      if (o.bytesRead) stats.filesRead++;
      stats.bytesRead += o.bytesRead;
      if (o.bytesStored) stats.blobsWritten++;
      stats.bytesStored += o.bytesStored;
    }
    for (const item of overTotal) if (!files.has(item.abs)) files.set(item.abs, prev.files.get(item.abs)!);
    const overTotalLeft = overTotal.length + outcomes.filter((o) => o.record.kind === 'skipped' && o.record.reason === 'over-total').length;
    stats.readMs = performance.now() - t0 - stats.walkMs;
    stats.filesSeen = walked.seen;
    stats.excludedDirs = walked.excludedDirs.size;
    const knownUnreadable = prev instanceof Manifest ? prev.unreadableDirs : new Map<string, string>();
    for (const [abs, code] of walked.unreadableDirs) if (!knownUnreadable.has(abs)) this.log(`snapshot: cannot list ${abs} (${code})`);

    const manifest = new Manifest({
      roots: this.roots,
      files,
      excludedDirs: walked.excludedDirs,
      unreadableDirs: walked.unreadableDirs,
      ignores: walked.ignores,
      rules: this.rules,
      startedAt,
      contentBound: bound,
      overTotal: overTotalLeft,
    });
    this.latest = manifest;
    this.loaded = undefined;
    this.inSync = this.engine?.kind === 'worker';
    if (toRead.length || walked.deleted.length || files.size !== prev.files.size) {
      this.saving = this.saving
        .then(() => saveCache(this.storeDir, this.roots, startedAt, files))
        .catch((error: Error) => this.log(`snapshot: could not save the stat cache (${error.message})`));
    }
    stats.durationMs = performance.now() - t0;
    this.lastStats = stats;
    return manifest;
  }

  /**
   * What the reads may store. When the last manifest's content (an upper bound of it) plus everything to read fits
   * under the cap, nothing needs counting (the common case); otherwise the content kept is counted exactly and the
   * rest is the budget. Entries skipped for the cap join the reads when there is room for them.
   */
  private async limits(files: ReadonlyMap<string, FileRecord>, toRead: ReadItem[], overTotal: ReadItem[], bound: number): Promise<{ limits: ReadLimits; bound: number }> {
    const incoming = bytesOf(toRead) + bytesOf(overTotal);
    const everything = (upTo: number) => {
      toRead.push(...overTotal.splice(0));
      return { limits: { maxFileBytes: this.maxFileBytes, budget: Infinity, counted: [] }, bound: upTo };
    };
    if (bound + incoming <= this.maxTotalBytes) return everything(bound + incoming);
    const rereading = new Set(toRead.map((t) => t.abs));
    const counted = new Set<string>();
    const pacer = new Pacer();
    let kept = 0;
    for (const [abs, r] of files) {
      if (pacer.due()) await pacer.pause();
      if (r.kind !== 'file' || rereading.has(abs) || counted.has(r.hash)) continue;
      counted.add(r.hash);
      kept += r.stat.size;
    }
    if (kept + incoming <= this.maxTotalBytes) return everything(kept + incoming);
    const budget = Math.max(0, this.maxTotalBytes - kept);
    let room = budget - bytesOf(toRead);
    for (const item of overTotal.splice(0)) {
      if (item.stat.size > room) overTotal.push(item);
      else {
        toRead.push(item);
        room -= item.stat.size;
      }
    }
    return { limits: { maxFileBytes: this.maxFileBytes, budget, counted: [...counted] }, bound: kept + Math.min(budget, bytesOf(toRead)) };
  }

  /** Runs `job` on the engine; if the worker fails, says so once and runs it again on this thread. */
  private async withEngine<T>(job: (e: Engine) => Promise<T>, onFallback?: () => void): Promise<T> {
    const engine = this.currentEngine();
    try {
      return await job(engine);
    } catch (error) {
      if (!(engine instanceof WorkerEngine)) throw error;
      this.log(`snapshot: the worker thread failed (${(error as Error).message}); walking on this thread from now on`);
      engine.close();
      this.engine = this.inProcess();
      this.inSync = false;
      onFallback?.();
      return job(this.engine);
    }
  }

  private currentEngine(): Engine {
    if (this.engine) return this.engine;
    const script = this.options.workerScript ?? path.join(__dirname, 'snapshotWalker.js');
    if (script && fs.existsSync(script)) {
      try {
        this.engine = new WorkerEngine(script, {
          roots: this.roots,
          storeDir: this.storeDir,
          blobsDir: path.join(this.storeDir, 'blobs'),
          excludes: [...(this.options.exclude ?? DEFAULT_SNAPSHOT_EXCLUDES)],
          respectGitignore: this.options.respectGitignore ?? true,
          trace: this.options.traceFs,
        });
        return this.engine;
      } catch (error) {
        this.log(`snapshot: no worker thread (${(error as Error).message}); walking on this thread`);
      }
    } else if (script) this.log(`snapshot: no worker script at ${script}; walking on this thread`);
    this.engine = this.inProcess();
    return this.engine;
  }

  private inProcess(): Engine {
    return new InProcessEngine(this.roots, this.rules, this.blobs, this.options.concurrency ?? 32);
  }
}

function bytesOf(items: ReadItem[]): number {
  return items.reduce((n, t) => n + (t.link ? 0 : t.stat.size), 0);
}

function hashesOf(files: ReadonlyMap<string, FileRecord>): Set<string> {
  const out = new Set<string>();
  for (const r of files.values()) if (r.kind === 'file') out.add(r.hash);
  return out;
}

function stripSep(p: string): string {
  return p.length > 1 && p.endsWith(path.sep) && path.parse(p).root !== p ? p.slice(0, -1) : p;
}
