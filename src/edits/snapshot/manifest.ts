import * as path from 'node:path';
import type { Ignore } from 'ignore';
import { isGitName, relativeTo, type ExclusionRules } from './rules';
import type { Change, ExcludeReason, FileRecord, Lookup, SkipReason } from './types';
import * as l10n from '@vscode/l10n';

export interface ManifestTally {
  /** Bytes of distinct content (what `maxTotalBytes` caps). */
  contentBytes: number;
  skipped: Record<SkipReason, number>;
  symlinks: number;
}

export interface ManifestParts {
  roots: readonly string[];
  files: ReadonlyMap<string, FileRecord>;
  excludedDirs: ReadonlyMap<string, ExcludeReason>;
  unreadableDirs: ReadonlyMap<string, string>;
  ignores: ReadonlyMap<string, Ignore>;
  rules: ExclusionRules;
  /** Wall-clock ms when the refresh that made it started (files modified after it minus 2 s are read again). */
  startedAt: number;
  /** At least the bytes of distinct content (exact when counted): the next refresh's cap check starts from it. */
  contentBound: number;
  /** How many records were skipped for the total cap (the next refresh tries them again when there is room). */
  overTotal: number;
}

/**
 * What the roots held at one refresh, immutable: callers keep the turn start's manifest as "before" while later
 * refreshes make new ones. Paths are absolute, as `path.resolve` gives them.
 */
export class Manifest {
  readonly roots: readonly string[];
  readonly startedAt: number;
  readonly contentBound: number;
  readonly overTotal: number;
  /** Roots longest first, so a nested root owns its files. */
  private readonly byLength: readonly string[];
  private counts: ManifestTally | undefined;

  constructor(private readonly parts: ManifestParts) {
    this.roots = parts.roots;
    this.startedAt = parts.startedAt;
    this.contentBound = parts.contentBound;
    this.overTotal = parts.overTotal;
    this.byLength = [...parts.roots].sort((a, b) => b.length - a.length);
  }

  static empty(roots: readonly string[], rules: ExclusionRules): Manifest {
    return new Manifest({ roots, files: new Map(), excludedDirs: new Map(), unreadableDirs: new Map(), ignores: new Map(), rules, startedAt: 0, contentBound: 0, overTotal: 0 });
  }

  get size(): number {
    return this.parts.files.size;
  }

  /** Every record by absolute path (files and links only). */
  get files(): ReadonlyMap<string, FileRecord> {
    return this.parts.files;
  }

  /** Folders the walk could not list, with the error code. */
  get unreadableDirs(): ReadonlyMap<string, string> {
    return this.parts.unreadableDirs;
  }

  /** The record of a path (files and links only). */
  record(absPath: string): FileRecord | undefined {
    return this.parts.files.get(absPath);
  }

  paths(): IterableIterator<string> {
    return this.parts.files.keys();
  }

  entries(): IterableIterator<[string, FileRecord]> {
    return this.parts.files.entries();
  }

  /** Counts over every record, computed once on first use. */
  tally(): ManifestTally {
    if (!this.counts) {
      const t: ManifestTally = { contentBytes: 0, skipped: { 'too-large': 0, 'over-total': 0, unreadable: 0 }, symlinks: 0 };
      const seen = new Set<string>();
      for (const r of this.parts.files.values()) {
        if (r.kind === 'file') {
          if (!seen.has(r.hash)) {
            seen.add(r.hash);
            t.contentBytes += r.stat.size;
          }
        } else if (r.kind === 'symlink') t.symlinks++;
        else t.skipped[r.reason]++;
      }
      this.counts = t;
    }
    return this.counts;
  }

  /** Every content hash this manifest refers to: what `collect` must keep while the manifest is in use. */
  hashes(): Set<string> {
    const out = new Set<string>();
    for (const r of this.parts.files.values()) if (r.kind === 'file') out.add(r.hash);
    return out;
  }

  lookup(absPath: string): Lookup {
    const abs = path.resolve(absPath);
    const record = this.parts.files.get(abs);
    if (record) return toLookup(record);
    const root = this.rootOf(abs);
    if (root === undefined) return { kind: 'outside' };
    if (abs === root) return { kind: 'absent' };
    const rel = relativeTo(root, abs);
    const segments = rel.split('/');
    if (segments.some(isGitName)) return { kind: 'excluded', reason: 'git-dir' };
    // A folder the walk left out or could not read, on the way down.
    let dir = root;
    for (let i = 0; i < segments.length - 1; i++) {
      dir = path.join(dir, segments[i]);
      const excluded = this.parts.excludedDirs.get(dir);
      if (excluded) return { kind: 'excluded', reason: excluded };
      const unreadable = this.parts.unreadableDirs.get(dir);
      if (unreadable) return { kind: 'skipped', reason: 'unreadable', detail: l10n.t('folder: {0}', unreadable) };
    }
    if (this.parts.excludedDirs.has(abs)) return { kind: 'excluded', reason: this.parts.excludedDirs.get(abs)! };
    // Not seen: excluded by the rules in force then (a file or folder that did not exist yet), or absent.
    const reason = this.parts.rules.classifyPath(root, rel, (d) => this.parts.ignores.get(d));
    return reason ? { kind: 'excluded', reason } : { kind: 'absent' };
  }

  /** The root a path is in (the deepest, for nested roots), or undefined. */
  rootOf(abs: string): string | undefined {
    for (const root of this.byLength) {
      if (abs === root || abs.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return root;
    }
    return undefined;
  }

  /**
   * What changed from `before` to this manifest: by hash for content, by stat and reason for skipped entries, by
   * target for links. A rename is a delete and a create. A path recorded on one side and excluded on the other (a
   * `.gitignore` changed) is not reported: nothing is known about it there.
   */
  changesSince(before: Manifest): Change[] {
    const changes: Change[] = [];
    if (before.parts.files === this.parts.files) return changes; // a refresh that found nothing changed shares its map
    for (const [p, now] of this.parts.files) {
      const then = before.parts.files.get(p);
      if (!then) {
        if (before.lookup(p).kind === 'absent') changes.push({ path: p, change: 'created' });
      } else if (!sameContent(then, now)) changes.push({ path: p, change: 'modified' });
    }
    for (const p of before.parts.files.keys()) {
      if (!this.parts.files.has(p) && this.lookup(p).kind === 'absent') changes.push({ path: p, change: 'deleted' });
    }
    return changes;
  }
}

export function sameContent(a: FileRecord, b: FileRecord): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  if (a.kind === 'skipped' && b.kind === 'skipped') {
    return a.reason === b.reason && a.stat.size === b.stat.size && a.stat.mtimeNs === b.stat.mtimeNs && a.stat.ino === b.stat.ino;
  }
  return false;
}

function toLookup(r: FileRecord): Lookup {
  switch (r.kind) {
    case 'file':
      return { kind: 'file', hash: r.hash, size: r.stat.size };
    case 'symlink':
      return { kind: 'symlink', target: r.target };
    case 'skipped':
      return r.detail === undefined ? { kind: 'skipped', reason: r.reason, size: r.stat.size } : { kind: 'skipped', reason: r.reason, detail: r.detail, size: r.stat.size };
  }
}
