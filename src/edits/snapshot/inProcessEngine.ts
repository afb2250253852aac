import type { SnapshotBlobs } from './blobs';
import { Candidates } from './candidates';
import type { Engine, ReadItem, ReadLimits, ReadOutcome, WalkRequest, WalkResult } from './engine';
import { eachLimited } from './pace';
import { readFileRecord, readLinkRecord } from './reader';
import type { ExclusionRules } from './rules';
import type { ExcludeReason } from './types';
import { walk, type GitignoreCache } from './walk';

const READ_CONCURRENCY = 8;

/**
 * The snapshot's file-system work on this thread, with asynchronous fs (callbacks, at most `concurrency` calls
 * outstanding) and synchronous loops that give way every few milliseconds. Slower than the worker (a libuv round trip
 * per lstat: 1.7-2.7x at 10,000-50,000 files on the bench) but needs nothing more than this thread: the fallback.
 * It keeps no memory of the last walk, so every walk is full.
 */
export class InProcessEngine implements Engine {
  readonly kind = 'in-process' as const;
  private readonly gitignores: GitignoreCache = new Map();

  constructor(
    private readonly roots: readonly string[],
    private readonly rules: ExclusionRules,
    private readonly blobs: SnapshotBlobs,
    private readonly concurrency: number,
  ) {}

  async walk(_request: WalkRequest): Promise<WalkResult> {
    const candidates = new Candidates(4096);
    const excludedDirs = new Map<string, ExcludeReason>();
    const unreadableDirs = new Map<string, string>();
    const ignores = await walk(
      { roots: this.roots, rules: this.rules, concurrency: this.concurrency, gitignores: this.gitignores },
      {
        entry: (abs, st) => candidates.push(abs, st),
        excludedDir: (abs, reason) => excludedDirs.set(abs, reason),
        unreadableDir: (abs, code) => unreadableDirs.set(abs, code),
      },
    );
    return { full: true, candidates, deleted: [], seen: candidates.length, excludedDirs, unreadableDirs, ignores };
  }

  async read(items: ReadItem[], limits: ReadLimits): Promise<ReadOutcome[]> {
    let budget = limits.budget;
    const counted = new Set(limits.counted);
    const admit = (hash: string, size: number): boolean => {
      if (budget === Infinity || counted.has(hash)) return true;
      if (size > budget) return false;
      budget -= size;
      counted.add(hash);
      return true;
    };
    const out: ReadOutcome[] = new Array(items.length);
    await eachLimited(items, READ_CONCURRENCY, async ({ abs, stat, link }, i) => {
      if (link) out[i] = { abs, record: await readLinkRecord(abs, stat), bytesRead: 0, bytesStored: 0 };
      else out[i] = { abs, ...(await readFileRecord(abs, stat, this.blobs, { maxFileBytes: limits.maxFileBytes, admit })) };
    });
    return out;
  }

  close(): void {}
}
