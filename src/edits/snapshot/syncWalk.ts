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

/** What the walker remembers of an entry: its stat, and the walk that last saw it. */
interface Seen {
  stat: StatKey;
  walk: number;
}

/**
 * The walk with synchronous fs, for the worker thread: the same rules and the same order of checks as the
 * asynchronous `walk` (`.git` never stat'ed, excluded folders not entered), depth first. Remembers each entry's stat
 * between walks, and reports only the entries that are new, whose stat changed, that are racy or dirty, unless asked
 * for all of them. An entry or folder it kept last time is not classified again while no `.gitignore` above it
 * changed (the globs never change in a walker's life): that is most of a walk's own work at 50,000 files.
 */
export class SyncWalker {
  private previous = new Map<string, Seen>();
  /** Folders entered by the last walk, and those that had a `.gitignore`. */
  private previousDirs = new Set<string>();
  private previousGitignores = new Set<string>();
  private walks = 0;
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
    const walk = ++this.walks;
    const previous = this.previous;
    const previousDirs = this.previousDirs;
    const dirs = new Set<string>();
    const gitignoreDirs = new Set<string>();
    const candidates = new Candidates(request.full ? 4096 : 256);
    const excludedDirs: [string, ExcludeReason][] = [];
    const unreadableDirs: [string, string][] = [];
    const gitignores: [string, string][] = [];
    const dirty = new Set(request.dirty);
    let seen = 0;
    type Frame = { abs: string; rel: string; chain: IgnoreChain | undefined; rulesChanged: boolean };
    const stack: Frame[] = this.roots.map((abs) => ({ abs, rel: '', chain: undefined, rulesChanged: false }));

    const push = (abs: string, rel: string, name: string, chain: IgnoreChain | undefined, rulesChanged: boolean): void => {
      if (this.rootSet.has(abs)) return; // a nested root is walked as itself
      const reason = !rulesChanged && previousDirs.has(abs) ? undefined : this.rules.classify(abs, rel, name, true, chain);
      if (reason) excludedDirs.push([abs, reason]);
      else stack.push({ abs, rel, chain, rulesChanged });
    };

    while (stack.length) {
      const frame = stack.pop()!;
      const { abs, rel } = frame;
      let entries: fs.Dirent[];
      try {
        entries = this.io.readdirSync(abs);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadableDirs.push([abs, code]);
        continue;
      }
      dirs.add(abs);
      let chain = frame.chain;
      let rulesChanged = frame.rulesChanged;
      const ignoreFile = this.rules.respectGitignore && entries.some((e) => e.name === '.gitignore' && !e.isDirectory()) ? this.gitignore(path.join(abs, '.gitignore')) : undefined;
      if (ignoreFile) {
        chain = { dirRel: rel, ig: ignoreFile.ig, parent: chain };
        gitignores.push([abs, ignoreFile.text]);
        gitignoreDirs.add(abs);
        if (ignoreFile.changed || !this.previousGitignores.has(abs)) rulesChanged = true;
      } else if (this.previousGitignores.has(abs)) rulesChanged = true;

      for (const e of entries) {
        const name = e.name;
        const childAbs = abs + path.sep + name;
        if (isGitName(name)) {
          excludedDirs.push([childAbs, 'git-dir']);
          continue;
        }
        if (e.isDirectory()) {
          push(childAbs, rel ? `${rel}/${name}` : name, name, chain, rulesChanged);
          continue;
        }
        if (!e.isFile() && !e.isSymbolicLink() && (e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice())) continue;
        const old = previous.get(childAbs);
        if ((rulesChanged || !old) && this.rules.classify(childAbs, rel ? `${rel}/${name}` : name, name, false, chain)) continue;
        const st = this.io.lstatSync(childAbs);
        if (!st) continue;
        if (st.isDirectory()) {
          push(childAbs, rel ? `${rel}/${name}` : name, name, chain, rulesChanged);
          continue;
        }
        if (!st.isFile() && !st.isSymbolicLink()) continue;
        seen++;
        let changed = !old;
        if (old) {
          old.walk = walk;
          const s = old.stat;
          if (s.mtimeNs !== st.mtimeNs || s.ctimeNs !== st.ctimeNs || s.ino !== st.ino || s.size !== Number(st.size) || s.mode !== Number(st.mode)) {
            old.stat = keyOf(st);
            changed = true;
          }
        } else previous.set(childAbs, { stat: keyOf(st), walk });
        if (request.full || changed || st.mtimeNs >= request.racyFromNs || isDirty(dirty, childAbs)) candidates.push(childAbs, st);
      }
    }
    const deleted: string[] = [];
    for (const [p, entry] of previous) {
      if (entry.walk === walk) continue;
      previous.delete(p);
      if (!request.full) deleted.push(p);
    }
    this.previousDirs = dirs;
    this.previousGitignores = gitignoreDirs;
    return { full: request.full, candidates, deleted, seen, excludedDirs, unreadableDirs, gitignores };
  }

  /** Forgets the last walk (the next must be full). */
  reset(): void {
    this.previous = new Map();
    this.previousDirs = new Set();
    this.previousGitignores = new Set();
  }

  private gitignore(file: string): { text: string; ig: Ignore; changed: boolean } | undefined {
    const st = this.io.lstatSync(file);
    if (!st?.isFile()) return undefined;
    const key = keyOf(st);
    const cached = this.gitignoreCache.get(file);
    if (cached && sameStat(cached.stat, key)) return { ...cached, changed: false };
    try {
      const text = this.io.readFileSync(file);
      const entry = { stat: key, text, ig: parseGitignore(text) };
      this.gitignoreCache.set(file, entry);
      return { ...entry, changed: cached?.text !== text };
    } catch {
      return undefined;
    }
  }
}

function keyOf(st: fs.BigIntStats): StatKey {
  return { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) };
}
