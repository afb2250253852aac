import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Pacer } from './pace';
import { relativeTo } from './rules';
import type { FileRecord, SkipReason, StatKey } from './types';

/**
 * The stat cache on disk, so the first refresh after a window reload reads only what changed. One file, replaced
 * atomically: a JSON header line, then one tab-separated line per record (root index, path relative to it, kind,
 * size, mtime ns, ctime ns, inode, mode, then the hash, the skip reason and detail, or the link target), with tabs,
 * newlines and backslashes in text fields escaped. Anything unexpected while loading discards the whole file: the
 * next refresh is a full scan, never a crash.
 */
const FORMAT = 'howdah-snapshot-stat-cache';
const VERSION = 1;
export const CACHE_FILE = 'stat-cache.v1';

export interface LoadedCache {
  startedAt: number;
  files: Map<string, FileRecord>;
}

export async function saveCache(storeDir: string, roots: readonly string[], startedAt: number, files: ReadonlyMap<string, FileRecord>): Promise<void> {
  const pacer = new Pacer();
  const sorted = [...roots].sort((a, b) => b.length - a.length);
  const index = new Map(roots.map((r, i) => [r, i]));
  const parts: string[] = [JSON.stringify({ format: FORMAT, version: VERSION, startedAt, roots })];
  for (const [abs, r] of files) {
    const root = sorted.find((s) => abs.startsWith(s.endsWith(path.sep) ? s : s + path.sep));
    if (root === undefined) continue;
    const s = r.stat;
    const head = `${index.get(root)}\t${escape(relativeTo(root, abs))}\t${r.kind[0]}\t${s.size}\t${s.mtimeNs}\t${s.ctimeNs}\t${s.ino}\t${s.mode}\t`;
    const tail = r.kind === 'file' ? r.hash : r.kind === 'symlink' ? escape(r.target) : `${r.reason}\t${escape(r.detail ?? '')}`;
    parts.push(head + tail);
    if (pacer.due()) await pacer.pause();
  }
  const file = path.join(storeDir, CACHE_FILE);
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.mkdir(storeDir, { recursive: true });
  try {
    await fs.writeFile(temp, parts.join('\n') + '\n');
    await fs.rename(temp, file);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The saved cache, or undefined when missing, of another format, or damaged in any way. */
export async function loadCache(storeDir: string, log?: (line: string) => void): Promise<LoadedCache | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(storeDir, CACHE_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return await parse(text);
  } catch (error) {
    log?.(`snapshot: the saved stat cache is damaged (${(error as Error).message}); the next refresh reads everything`);
    return undefined;
  }
}

async function parse(text: string): Promise<LoadedCache> {
  const pacer = new Pacer();
  let at = text.indexOf('\n');
  if (at < 0) throw new Error('no header');
  const header = JSON.parse(text.slice(0, at)) as { format?: unknown; version?: unknown; startedAt?: unknown; roots?: unknown };
  if (header.format !== FORMAT || header.version !== VERSION) throw new Error('unknown format');
  if (typeof header.startedAt !== 'number' || !Array.isArray(header.roots) || !header.roots.every((r) => typeof r === 'string')) throw new Error('bad header');
  const roots = header.roots as string[];
  const files = new Map<string, FileRecord>();
  if (!text.endsWith('\n')) throw new Error('truncated');
  for (let start = at + 1; start < text.length; start = at + 1) {
    at = text.indexOf('\n', start);
    const f = text.slice(start, at).split('\t');
    const root = roots[Number(f[0])];
    if (root === undefined || f.length < 9 || !f[1]) throw new Error(`bad line at ${start}`);
    const stat: StatKey = { size: int(f[3]), mtimeNs: BigInt(f[4]), ctimeNs: BigInt(f[5]), ino: BigInt(f[6]), mode: int(f[7]) };
    files.set(path.join(root, unescape(f[1])), record(f, stat));
    if (pacer.due()) await pacer.pause();
  }
  return { startedAt: header.startedAt, files };
}

function record(f: string[], stat: StatKey): FileRecord {
  switch (f[2]) {
    case 'f':
      if (!/^[0-9a-f]{64}$/.test(f[8])) throw new Error('bad hash');
      return Object.freeze({ kind: 'file', stat, hash: f[8] });
    case 'l':
      return Object.freeze({ kind: 'symlink', stat, target: unescape(f[8]) });
    case 's': {
      const reason = f[8] as SkipReason;
      if (reason !== 'too-large' && reason !== 'over-total' && reason !== 'unreadable') throw new Error('bad reason');
      return Object.freeze(f[9] ? { kind: 'skipped', stat, reason, detail: unescape(f[9]) } : { kind: 'skipped', stat, reason });
    }
    default:
      throw new Error('bad kind');
  }
}

function int(s: string): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error('bad number');
  return n;
}

function escape(s: string): string {
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : s;
}

function unescape(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c)) : s;
}
