import type { BigIntStats } from 'node:fs';
import * as path from 'node:path';
import type { StatKey } from './types';

/** lstat's fields the snapshot keeps, as stored 5 to an entry in a BigInt64Array. */
const FIELDS = 5;

/**
 * The entries a walk reports, column by column (paths, stats in one BigInt64Array, a link flag), so a worker can hand
 * 50,000 of them over as one string and two transferable buffers instead of 50,000 cloned objects.
 */
export class Candidates {
  paths: string[] = [];
  private stats: BigInt64Array;
  private links: Uint8Array;

  constructor(capacity = 256, stats?: BigInt64Array, links?: Uint8Array, paths?: string[]) {
    this.stats = stats ?? new BigInt64Array(capacity * FIELDS);
    this.links = links ?? new Uint8Array(capacity);
    if (paths) this.paths = paths;
  }

  get length(): number {
    return this.paths.length;
  }

  push(abs: string, st: BigIntStats): void {
    const i = this.paths.length;
    if ((i + 1) * FIELDS > this.stats.length) this.grow();
    const o = i * FIELDS;
    this.stats[o] = st.size;
    this.stats[o + 1] = st.mtimeNs;
    this.stats[o + 2] = st.ctimeNs;
    this.stats[o + 3] = st.ino;
    this.stats[o + 4] = st.mode;
    this.links[i] = st.isSymbolicLink() ? 1 : 0;
    this.paths.push(abs);
  }

  stat(i: number): StatKey {
    const o = i * FIELDS;
    return { size: Number(this.stats[o]), mtimeNs: this.stats[o + 1], ctimeNs: this.stats[o + 2], ino: this.stats[o + 3], mode: Number(this.stats[o + 4]) };
  }

  isLink(i: number): boolean {
    return this.links[i] === 1;
  }

  mtimeNs(i: number): bigint {
    return this.stats[i * FIELDS + 1];
  }

  /** The entry's stat equals `s` (compared in place, no object made). */
  sameAs(i: number, s: StatKey): boolean {
    const o = i * FIELDS;
    const st = this.stats;
    return st[o + 1] === s.mtimeNs && st[o + 2] === s.ctimeNs && st[o + 3] === s.ino && Number(st[o]) === s.size && Number(st[o + 4]) === s.mode;
  }

  /** For postMessage: the paths as one NUL-joined string (NUL is in no path), the buffers to transfer. */
  pack(): { paths: string; stats: BigInt64Array; links: Uint8Array } {
    return { paths: this.paths.join('\0'), stats: this.stats.subarray(0, this.length * FIELDS), links: this.links.subarray(0, this.length) };
  }

  static unpack(p: { paths: string; stats: BigInt64Array; links: Uint8Array }): Candidates {
    return new Candidates(0, p.stats, p.links, p.paths ? p.paths.split('\0') : []);
  }

  private grow(): void {
    const stats = new BigInt64Array(Math.max(this.stats.length * 2, FIELDS * 256));
    stats.set(this.stats);
    this.stats = stats;
    const links = new Uint8Array(stats.length / FIELDS);
    links.set(this.links);
    this.links = links;
  }
}

/** `abs` or a folder above it was marked dirty. */
export function isDirty(dirty: ReadonlySet<string>, abs: string): boolean {
  if (!dirty.size) return false;
  for (let p = abs; ; ) {
    if (dirty.has(p)) return true;
    const parent = path.dirname(p);
    if (parent === p) return false;
    p = parent;
  }
}
