import * as fs from 'node:fs';
import type { BigIntStats, Dirent } from 'node:fs';
import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { Pacer } from './pace';
import { isGitName, parseGitignore, type ExclusionRules, type IgnoreChain } from './rules';
import { sameStat, type ExcludeReason, type StatKey } from './types';
import { statKey } from './reader';

/** What the walk reports. Excluded files are simply not reported; excluded folders are, as prefixes. */
export interface WalkVisitor {
  /** A regular file or a symbolic link (never followed), with its lstat. */
  entry(abs: string, stat: BigIntStats): void;
  excludedDir(abs: string, reason: ExcludeReason): void;
  unreadableDir(abs: string, code: string): void;
}

/** The rules of each `.gitignore` seen, by its stat, reused while the file is unchanged. */
export type GitignoreCache = Map<string, { stat: StatKey; ig: Ignore }>;

export interface WalkOptions {
  roots: readonly string[];
  rules: ExclusionRules;
  /** Outstanding readdir/lstat calls at most. */
  concurrency: number;
  gitignores: GitignoreCache;
}

/** The folders whose `.gitignore` was in force in this walk, for lookups of paths the walk did not see. */
export type IgnoresByDir = Map<string, Ignore>;

/**
 * Walks the roots with the callback API of `fs` (cheaper per call than `fs/promises`, which matters at 10⁵ files),
 * at most `concurrency` calls outstanding, never entering an excluded folder nor stat'ing inside `.git`. A folder
 * with many entries is classified in slices so the event loop is never held for long.
 */
export function walk(options: WalkOptions, visitor: WalkVisitor): Promise<IgnoresByDir> {
  const { rules, gitignores } = options;
  const rootSet = new Set(options.roots);
  const ignores: IgnoresByDir = new Map();
  const pacer = new Pacer();
  const queue: Array<() => void> = [];
  let active = 0;
  let resolveAll!: () => void;
  const finished = new Promise<void>((resolve) => (resolveAll = resolve));

  const pump = (): void => {
    while (active < options.concurrency && queue.length) {
      active++;
      queue.pop()!();
    }
    if (active === 0 && queue.length === 0) resolveAll();
  };
  const done = (): void => {
    active--;
    pump();
  };

  const lstat = (abs: string, then: (st: BigIntStats | undefined) => void): void => {
    queue.push(() =>
      fs.lstat(abs, { bigint: true }, (error, st) => {
        then(error ? undefined : st);
        done();
      }),
    );
  };

  const dir = (abs: string, rel: string, chain: IgnoreChain | undefined): void => {
    queue.push(() =>
      fs.readdir(abs, { withFileTypes: true }, (error, entries) => {
        if (error) {
          // A folder that went away since its parent was listed is simply empty now.
          if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') visitor.unreadableDir(abs, error.code ?? 'EIO');
          done();
          return;
        }
        const gitignore = rules.respectGitignore ? entries.find((e) => e.name === '.gitignore' && !e.isDirectory()) : undefined;
        if (!gitignore) {
          children(abs, rel, chain, entries, 0);
          done();
          return;
        }
        const file = path.join(abs, '.gitignore');
        fs.lstat(file, { bigint: true }, (statError, st) => {
          const withIgnore = (ig: Ignore | undefined): void => {
            if (ig) ignores.set(abs, ig);
            children(abs, rel, ig ? { dirRel: rel, ig, parent: chain } : chain, entries, 0);
            done();
          };
          if (statError || !st.isFile()) return withIgnore(undefined);
          const key = statKey(st);
          const cached = gitignores.get(file);
          if (cached && sameStat(cached.stat, key)) return withIgnore(cached.ig);
          fs.readFile(file, 'utf8', (readError, text) => {
            if (readError) return withIgnore(undefined);
            const ig = parseGitignore(text);
            gitignores.set(file, { stat: key, ig });
            withIgnore(ig);
          });
        });
      }),
    );
  };

  /** Classifies a folder's entries from `from` on; past the time slice, continues in a later turn of the loop. */
  const children = (abs: string, rel: string, chain: IgnoreChain | undefined, entries: Dirent[], from: number): void => {
    for (let i = from; i < entries.length; i++) {
      if (pacer.due()) {
        active++;
        void pacer.pause().then(() => {
          children(abs, rel, chain, entries, i);
          done();
        });
        return;
      }
      const e = entries[i];
      const name = e.name;
      const childAbs = abs + path.sep + name;
      if (isGitName(name)) {
        visitor.excludedDir(childAbs, 'git-dir');
        continue;
      }
      const childRel = rel ? `${rel}/${name}` : name;
      if (e.isDirectory()) {
        if (rootSet.has(childAbs)) continue; // a nested root is walked as itself
        const reason = rules.classify(childAbs, childRel, name, true, chain);
        if (reason) visitor.excludedDir(childAbs, reason);
        else dir(childAbs, childRel, chain);
        continue;
      }
      // FIFOs, sockets and devices are not content; an unknown type (some file systems) is told by lstat.
      const known = e.isFile() || e.isSymbolicLink();
      if (!known && (e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice())) continue;
      if (rules.classify(childAbs, childRel, name, false, chain)) continue;
      lstat(childAbs, (st) => {
        if (!st) return; // gone since the listing
        if (st.isFile() || st.isSymbolicLink()) visitor.entry(childAbs, st);
        else if (st.isDirectory() && !rootSet.has(childAbs)) {
          const reason = rules.classify(childAbs, childRel, name, true, chain);
          if (reason) visitor.excludedDir(childAbs, reason);
          else dir(childAbs, childRel, chain);
        }
      });
    }
  };

  for (const root of options.roots) dir(root, '', undefined);
  pump();
  return finished.then(() => ignores);
}
