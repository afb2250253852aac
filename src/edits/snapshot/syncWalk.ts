import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { Candidates, isDirty } from './candidates';
import type { WalkRequest } from './engine';
import { isGitName, parseGitignore, type ExclusionRules, type IgnoreChain } from './rules';
import { sameStat, type ExcludeReason, type StatKey } from './types';

/** The file-system calls the walk makes, so tests can see them (the worker has its own copy of `fs`). */
export interface SyncFs {
  readdirSync(p: string): fs.Dirent[];
  lstatSync(p: string): fs.BigIntStats | undefined;
  readFileSync(p: string): string;
}

export const realSyncFs: SyncFs = {
  readdirSync: (p) => fs.readdirSync(p, { withFileTypes: true }),
  lstatSync: (p) => fs.lstatSync(p, { bigint: true, throwIfNoEntry: false }),
  readFileSync: (p) => fs.readFileSync(p, 'utf8'),
};

export interface SyncWalkOutput {
  full: boolean;
  candidates: Candidates;
  deleted: string[];
  seen: number;
  excludedDirs: [string, ExcludeReason][];
  unreadableDirs: [string, string][];
  gitignores: [string, string][];
}

/**
 * The walk with synchronous fs, for the worker thread: the same rules and the same order of checks as the
 * asynchronous `walk` (`.git` never stat'ed, excluded folders not entered), depth first. Remembers each entry's stat
 * between walks, and reports only the entries that are new, whose stat changed, that are racy or dirty, unless asked
 * for all of them.
 */
export class SyncWalker {
  private previous = new Map<string, StatKey>();
  private readonly gitignoreCache = new Map<string, { stat: StatKey; text: string; ig: Ignore }>();
  private readonly rootSet: Set<string>;

  constructor(
    private readonly roots: readonly string[],
    private readonly rules: ExclusionRules,
    private readonly io: SyncFs = realSyncFs,
  ) {
    this.rootSet = new Set(roots);
  }

  walk(request: WalkRequest): SyncWalkOutput {
    const next = new Map<string, StatKey>();
    const candidates = new Candidates(request.full ? 4096 : 256);
    const excludedDirs: [string, ExcludeReason][] = [];
    const unreadableDirs: [string, string][] = [];
    const gitignores: [string, string][] = [];
    const dirty = new Set(request.dirty);
    const previous = this.previous;
    const stack: Array<{ abs: string; rel: string; chain: IgnoreChain | undefined }> = this.roots.map((abs) => ({ abs, rel: '', chain: undefined }));

    const push = (abs: string, rel: string, name: string, chain: IgnoreChain | undefined): void => {
      if (this.rootSet.has(abs)) return; // a nested root is walked as itself
      const reason = this.rules.classify(abs, rel, name, true, chain);
      if (reason) excludedDirs.push([abs, reason]);
      else stack.push({ abs, rel, chain });
    };

    while (stack.length) {
      const { abs, rel, chain: parentChain } = stack.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = this.io.readdirSync(abs);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadableDirs.push([abs, code]);
        continue;
      }
      let chain = parentChain;
      if (this.rules.respectGitignore && entries.some((e) => e.name === '.gitignore' && !e.isDirectory())) {
        const loaded = this.gitignore(path.join(abs, '.gitignore'));
        if (loaded) {
          chain = { dirRel: rel, ig: loaded.ig, parent: parentChain };
          gitignores.push([abs, loaded.text]);
        }
      }
      for (const e of entries) {
        const name = e.name;
        const childAbs = abs + path.sep + name;
        if (isGitName(name)) {
          excludedDirs.push([childAbs, 'git-dir']);
          continue;
        }
        const childRel = rel ? `${rel}/${name}` : name;
        if (e.isDirectory()) {
          push(childAbs, childRel, name, chain);
          continue;
        }
        if (!e.isFile() && !e.isSymbolicLink() && (e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice())) continue;
        if (this.rules.classify(childAbs, childRel, name, false, chain)) continue;
        const st = this.io.lstatSync(childAbs);
        if (!st) continue;
        if (st.isDirectory()) {
          push(childAbs, childRel, name, chain);
          continue;
        }
        if (!st.isFile() && !st.isSymbolicLink()) continue;
        const key: StatKey = { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) };
        next.set(childAbs, key);
        const old = previous.get(childAbs);
        if (request.full || !old || !sameStat(old, key) || key.mtimeNs >= request.racyFromNs || isDirty(dirty, childAbs)) candidates.push(childAbs, st);
      }
    }
    const deleted: string[] = [];
    if (!request.full) for (const p of previous.keys()) if (!next.has(p)) deleted.push(p);
    this.previous = next;
    return { full: request.full, candidates, deleted, seen: next.size, excludedDirs, unreadableDirs, gitignores };
  }

  /** Forgets the last walk (the next must be full). */
  reset(): void {
    this.previous = new Map();
  }

  private gitignore(file: string): { text: string; ig: Ignore } | undefined {
    const st = this.io.lstatSync(file);
    if (!st?.isFile()) return undefined;
    const key: StatKey = { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) };
    const cached = this.gitignoreCache.get(file);
    if (cached && sameStat(cached.stat, key)) return cached;
    try {
      const text = this.io.readFileSync(file);
      const entry = { stat: key, text, ig: parseGitignore(text) };
      this.gitignoreCache.set(file, entry);
      return entry;
    } catch {
      return undefined;
    }
  }
}
