import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Pacer } from './pace';
import { relativeTo } from './rules';
import type { FileRecord, SkipReason, StatKey } from './types';

/**
 * The stat cache on disk, so the first refresh after a window reload reads only what changed. One binary file,
 * replaced atomically (temp file, rename), because a text format took several times longer to parse at 50,000
 * entries (a string per field, three BigInt parses per line):
 *
 *   "HOWDAHSC" · u32 version · u32 header length · header JSON {startedAt, roots} · records · u32 record count ·
 *   SHA-256 of everything before it
 *   record: u8 kind (0 file, 1 skipped, 2 link) · u16 root index · u32 path bytes · f64 size · i64 mtime ns ·
 *   i64 ctime ns · u64 inode · u32 mode · path (UTF-8, relative to the root, `/`) · then 32 bytes of hash, or
 *   u8 reason + u32 length + detail, or u32 length + link target
 *
 * Anything unexpected while loading (a bad checksum first of all) discards the whole file: the next refresh is a
 * full scan, never a crash.
 */
const MAGIC = Buffer.from('HOWDAHSC');
const VERSION = 2;
export const CACHE_FILE = 'stat-cache.bin';
const FIXED = 1 + 2 + 4 + 8 + 8 + 8 + 8 + 4;
const REASONS: readonly SkipReason[] = ['too-large', 'over-total', 'unreadable'];

export interface LoadedCache {
  startedAt: number;
  files: Map<string, FileRecord>;
}

export async function saveCache(storeDir: string, roots: readonly string[], startedAt: number, files: ReadonlyMap<string, FileRecord>): Promise<void> {
  const pacer = new Pacer();
  const byLength = [...roots].sort((a, b) => b.length - a.length);
  const index = new Map(roots.map((r, i) => [r, i]));
  const out = new ChunkWriter();
  const header = Buffer.from(JSON.stringify({ startedAt, roots }));
  out.need(MAGIC.length + 8 + header.length);
  out.bytes(MAGIC);
  out.u32(VERSION);
  out.u32(header.length);
  out.bytes(header);
  let count = 0;
  for (const [abs, r] of files) {
    const root = byLength.find((s) => abs.startsWith(s.endsWith(path.sep) ? s : s + path.sep));
    if (root === undefined) continue;
    const rel = relativeTo(root, abs);
    const relBytes = Buffer.byteLength(rel);
    const extra = r.kind === 'file' ? 32 : r.kind === 'symlink' ? 4 + Buffer.byteLength(r.target) : 5 + Buffer.byteLength(r.detail ?? '');
    out.need(FIXED + relBytes + extra);
    out.u8(r.kind === 'file' ? 0 : r.kind === 'skipped' ? 1 : 2);
    out.u16(index.get(root)!);
    out.u32(relBytes);
    out.f64(r.stat.size);
    out.i64(r.stat.mtimeNs);
    out.i64(r.stat.ctimeNs);
    out.u64(r.stat.ino);
    out.u32(r.stat.mode);
    out.text(rel);
    if (r.kind === 'file') out.hex(r.hash);
    else if (r.kind === 'symlink') out.lengthText(r.target);
    else {
      out.u8(REASONS.indexOf(r.reason));
      out.lengthText(r.detail ?? '');
    }
    count++;
    if (pacer.due()) await pacer.pause();
  }
  out.need(4);
  out.u32(count);
  const chunks = out.done();
  const digest = createHash('sha256');
  for (const c of chunks) digest.update(c);
  chunks.push(digest.digest());
  const file = path.join(storeDir, CACHE_FILE);
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.mkdir(storeDir, { recursive: true });
  try {
    await fs.writeFile(temp, Buffer.concat(chunks));
    await fs.rename(temp, file);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The saved cache, or undefined when missing, of another format, or damaged in any way. */
export async function loadCache(storeDir: string, log?: (line: string) => void): Promise<LoadedCache | undefined> {
  let data: Buffer;
  try {
    data = await fs.readFile(path.join(storeDir, CACHE_FILE));
  } catch {
    return undefined;
  }
  try {
    return await parse(data);
  } catch (error) {
    log?.(`snapshot: the saved stat cache is damaged (${(error as Error).message}); the next refresh reads everything`);
    return undefined;
  }
}

async function parse(data: Buffer): Promise<LoadedCache> {
  if (data.length < MAGIC.length + 8 + 4 + 32 || !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a stat cache');
  if (data.readUInt32LE(MAGIC.length) !== VERSION) throw new Error('another version');
  const body = data.subarray(0, data.length - 32);
  if (!createHash('sha256').update(body).digest().equals(data.subarray(data.length - 32))) throw new Error('checksum');
  const headerLength = data.readUInt32LE(MAGIC.length + 4);
  let at = MAGIC.length + 8;
  const header = JSON.parse(data.toString('utf8', at, at + headerLength)) as { startedAt?: unknown; roots?: unknown };
  at += headerLength;
  const roots = header.roots;
  if (typeof header.startedAt !== 'number' || !Array.isArray(roots) || !roots.every((r) => typeof r === 'string')) {
    throw new Error('bad header');
  }
  const prefixes = (roots as string[]).map((r) => (r.endsWith(path.sep) ? r : r + path.sep));
  const files = new Map<string, FileRecord>();
  const pacer = new Pacer();
  const end = body.length - 4;
  const count = body.readUInt32LE(end);
  const text = (length: number): string => {
    if (at + length > end) throw new Error('truncated');
    const s = data.toString('utf8', at, at + length);
    at += length;
    return s;
  };
  while (at < end) {
    if (at + FIXED > end) throw new Error('truncated');
    const kind = data[at];
    const prefix = prefixes[data.readUInt16LE(at + 1)];
    const relLength = data.readUInt32LE(at + 3);
    const stat: StatKey = {
      size: data.readDoubleLE(at + 7),
      mtimeNs: data.readBigInt64LE(at + 15),
      ctimeNs: data.readBigInt64LE(at + 23),
      ino: data.readBigUInt64LE(at + 31),
      mode: data.readUInt32LE(at + 39),
    };
    at += FIXED;
    if (prefix === undefined || !relLength) throw new Error('bad record');
    const rel = text(relLength);
    const abs = prefix + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
    let record: FileRecord;
    if (kind === 0) {
      if (at + 32 > end) throw new Error('truncated');
      record = { kind: 'file', stat, hash: data.toString('hex', at, at + 32) };
      at += 32;
    } else if (kind === 2) {
      record = { kind: 'symlink', stat, target: text(u32()) };
    } else if (kind === 1) {
      const reason = REASONS[data[at++]];
      const detail = text(u32());
      if (!reason) throw new Error('bad reason');
      record = detail ? { kind: 'skipped', stat, reason, detail } : { kind: 'skipped', stat, reason };
    } else throw new Error('bad kind');
    files.set(abs, Object.freeze(record));
    if (pacer.due()) await pacer.pause();
  }
  if (files.size !== count) throw new Error('count');
  return { startedAt: header.startedAt, files };

  function u32(): number {
    if (at + 4 > end) throw new Error('truncated');
    const n = data.readUInt32LE(at);
    at += 4;
    return n;
  }
}

/** Appends fixed-width fields to 1 MiB buffers (one of its own for a record that needs more). */
class ChunkWriter {
  private readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(0);
  private at = 0;

  need(n: number): void {
    if (this.at + n <= this.buf.length) return;
    if (this.at) this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(Math.max(n, 1024 * 1024));
    this.at = 0;
  }
  u8(n: number): void {
    this.at = this.buf.writeUInt8(n, this.at);
  }
  u16(n: number): void {
    this.at = this.buf.writeUInt16LE(n, this.at);
  }
  u32(n: number): void {
    this.at = this.buf.writeUInt32LE(n, this.at);
  }
  f64(n: number): void {
    this.at = this.buf.writeDoubleLE(n, this.at);
  }
  i64(n: bigint): void {
    this.at = this.buf.writeBigInt64LE(n, this.at);
  }
  u64(n: bigint): void {
    this.at = this.buf.writeBigUInt64LE(n, this.at);
  }
  bytes(b: Buffer): void {
    this.at += b.copy(this.buf, this.at);
  }
  text(s: string): void {
    this.at += this.buf.write(s, this.at, 'utf8');
  }
  lengthText(s: string): void {
    const n = Buffer.byteLength(s);
    this.u32(n);
    this.at += this.buf.write(s, this.at, 'utf8');
  }
  hex(h: string): void {
    this.at += this.buf.write(h, this.at, 'hex');
  }
  done(): Buffer[] {
    if (this.at) this.chunks.push(this.buf.subarray(0, this.at));
    return this.chunks;
  }
}
