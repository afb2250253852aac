import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import * as path from 'node:path';
import type { ExcludeReason } from './types';

/**
 * Which paths the snapshot leaves out, and why. Paths are tested relative to their root with forward slashes.
 * Order: a `.git` entry (file or folder, any case) is 'git-dir' and is never stat'ed, read or entered; the store
 * folder is 'excluded'; then the `exclude` globs (picomatch, dot files matched like any others, as VS Code does);
 * then, when asked, the `.gitignore` files found on the way down.
 */
export class ExclusionRules {
  private readonly glob: (rel: string, name: string) => boolean;
  private readonly storeDir: string;

  constructor(
    excludes: readonly string[],
    readonly respectGitignore: boolean,
    storeDir: string,
  ) {
    this.glob = globMatcher(excludes);
    this.storeDir = path.resolve(storeDir);
  }

  /** The reason an entry found in a walked folder is left out, or undefined. `chain`: the `.gitignore`s above it. */
  classify(abs: string, rel: string, name: string, isDir: boolean, chain: IgnoreChain | undefined): ExcludeReason | undefined {
    if (isGitName(name)) return 'git-dir';
    if (isDir && abs === this.storeDir) return 'excluded';
    if (this.glob(rel, name) || (isDir && this.glob(`${rel}/`, name))) return 'excluded';
    if (chain && this.respectGitignore && gitignored(chain, rel, isDir)) return 'gitignored';
    return undefined;
  }

  /**
   * For a path the walk did not record: the reason its folder or itself is left out, testing every folder on the
   * way as a folder and the last segment as a file. `ignoreAt(absDir)` gives the rules a folder's `.gitignore` had.
   */
  classifyPath(root: string, rel: string, ignoreAt: (absDir: string) => Ignore | undefined): ExcludeReason | undefined {
    const segments = rel.split('/');
    let chain: IgnoreChain | undefined;
    let dirRel = '';
    let dirAbs = root;
    const rootIgnore = ignoreAt(root);
    if (rootIgnore) chain = { dirRel: '', ig: rootIgnore, parent: undefined };
    for (let i = 0; i < segments.length; i++) {
      const name = segments[i];
      const last = i === segments.length - 1;
      dirRel = dirRel ? `${dirRel}/${name}` : name;
      dirAbs = path.join(dirAbs, name);
      const reason = this.classify(dirAbs, dirRel, name, !last, chain);
      if (reason) return reason;
      if (!last) {
        const ig = ignoreAt(dirAbs);
        if (ig) chain = { dirRel, ig, parent: chain };
      }
    }
    return undefined;
  }
}

// One test for all the globs. A glob `**/name/**` or `**/name` with a literal name (most watcherExclude keys)
// matches exactly the paths with a segment `name`: those are a set lookup; the rest are joined into one regular
// expression, an order of magnitude cheaper than picomatch's per-pattern loop at 10⁵ paths.
export function globMatcher(excludes: readonly string[]): (rel: string, name: string) => boolean {
  const names = new Set<string>();
  const sources: string[] = [];
  for (const glob of excludes) {
    const literal = /^\*\*\/([^/*?[\]{}()!+@\\]+)(?:\/\*\*)?$/.exec(glob);
    if (literal) names.add(literal[1]);
    else sources.push(picomatch.makeRe(glob, { dot: true }).source);
  }
  const re = sources.length ? new RegExp(sources.map((s) => `(?:${s})`).join('|')) : undefined;
  // Only the last segment is looked up: the walk (and classifyPath) tested every folder above on the way down.
  if (!re) return (_rel, name) => names.has(name);
  return (rel, name) => names.has(name) || re.test(rel);
}

/** The `.gitignore` rules in force in a folder: its own, then its parents'. */
export interface IgnoreChain {
  /** The folder holding this `.gitignore`, relative to the root ('' for the root). */
  readonly dirRel: string;
  readonly ig: Ignore;
  readonly parent: IgnoreChain | undefined;
}

/** Git's precedence: a deeper `.gitignore` decides first; a `!pattern` there re-includes what a higher one left out. */
function gitignored(chain: IgnoreChain, rel: string, isDir: boolean): boolean {
  for (let c: IgnoreChain | undefined = chain; c; c = c.parent) {
    const local = c.dirRel ? rel.slice(c.dirRel.length + 1) : rel;
    const result = c.ig.test(isDir ? `${local}/` : local);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

export function parseGitignore(text: string): Ignore {
  return ignore({ allowRelativePaths: true }).add(text);
}

export function isGitName(name: string): boolean {
  return name.length === 4 && name.toLowerCase() === '.git';
}

/** `a/b/c` from the absolute path and its root, with forward slashes whatever the platform. */
export function relativeTo(root: string, abs: string): string {
  const rel = abs.slice(root.length + (root.endsWith(path.sep) ? 0 : 1));
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}
