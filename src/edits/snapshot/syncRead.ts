import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReadItem, ReadLimits, ReadOutcome } from './engine';
import { sameStat, type FileRecord, type SkipReason, type StatKey } from './types';

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const ATTEMPTS = 3;

/**
 * The reader of the worker thread: the synchronous twin of `reader.ts`. Opens without following a link and without
 * blocking on a FIFO, takes the open file's stat before and after reading it (a file that changes while being read
 * is read again, up to 3 times), hashes it, and stores it under `<blobsDir>/<2 hex>/<62 hex>` (temp file, rename)
 * unless a blob of that hash exists. What may be stored is decided by `limits` (budget and already-counted hashes).
 */
export class SyncReader {
  private readonly shards = new Set<string>();
  private budget = Infinity;
  private counted = new Set<string>();

  constructor(
    private readonly blobsDir: string,
    private readonly touch: (p: string) => void = () => undefined,
  ) {}

  begin(limits: ReadLimits): void {
    this.budget = limits.budget;
    this.counted = new Set(limits.counted);
  }

  read(item: ReadItem, maxFileBytes: number): ReadOutcome {
    const { abs } = item;
    this.touch(abs);
    if (item.link) {
      try {
        return { abs, record: { kind: 'symlink', stat: item.stat, target: fs.readlinkSync(abs) }, bytesRead: 0, bytesStored: 0 };
      } catch (error) {
        return { abs, record: skipped(item.stat, 'unreadable', codeOf(error)), bytesRead: 0, bytesStored: 0 };
      }
    }
    let stat = item.stat;
    let bytesRead = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(abs, OPEN_FLAGS);
        const before = fs.fstatSync(fd, { bigint: true });
        stat = { size: Number(before.size), mtimeNs: before.mtimeNs, ctimeNs: before.ctimeNs, ino: before.ino, mode: Number(before.mode) };
        if (!before.isFile()) return { abs, record: skipped(stat, 'unreadable', 'not a regular file'), bytesRead, bytesStored: 0 };
        if (stat.size > maxFileBytes) return { abs, record: skipped(stat, 'too-large', `${stat.size} bytes`), bytesRead, bytesStored: 0 };
        const bytes = readAll(fd, stat.size);
        bytesRead += bytes.length;
        const after = fs.fstatSync(fd, { bigint: true });
        const afterKey = { size: Number(after.size), mtimeNs: after.mtimeNs, ctimeNs: after.ctimeNs, ino: after.ino, mode: Number(after.mode) };
        if (bytes.length !== stat.size || !sameStat(stat, afterKey)) continue;
        const hash = createHash('sha256').update(bytes).digest('hex');
        if (!this.admit(hash, bytes.length)) return { abs, record: skipped(stat, 'over-total'), bytesRead, bytesStored: 0 };
        const stored = this.store(hash, bytes);
        return { abs, record: { kind: 'file', stat, hash }, bytesRead, bytesStored: stored ? bytes.length : 0 };
      } catch (error) {
        return { abs, record: skipped(stat, 'unreadable', codeOf(error)), bytesRead, bytesStored: 0 };
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    }
    return { abs, record: skipped(stat, 'unreadable', 'changed while being read'), bytesRead, bytesStored: 0 };
  }

  private admit(hash: string, size: number): boolean {
    if (this.budget === Infinity || this.counted.has(hash)) return true;
    if (size > this.budget) return false;
    this.budget -= size;
    this.counted.add(hash);
    return true;
  }

  /** Writes the blob unless there. Returns true when written. */
  private store(hash: string, bytes: Buffer): boolean {
    const shard = path.join(this.blobsDir, hash.slice(0, 2));
    const file = path.join(shard, hash.slice(2));
    this.touch(file);
    if (fs.existsSync(file)) return false;
    if (!this.shards.has(shard)) {
      fs.mkdirSync(shard, { recursive: true });
      this.shards.add(shard);
    }
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temp, bytes);
      fs.renameSync(temp, file);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.shards.delete(shard); // the store was cleared under us
      throw error;
    }
    return true;
  }
}

/** The whole file, reading one byte past the size it had so a file that grew is noticed. */
function readAll(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size + 1);
  let at = 0;
  for (;;) {
    const n = fs.readSync(fd, buffer, at, buffer.length - at, at);
    if (n === 0) break;
    at += n;
    if (at === buffer.length) break; // grew: the caller sees the length differ and reads again
  }
  return buffer.subarray(0, at);
}

function skipped(stat: StatKey, reason: SkipReason, detail?: string): FileRecord {
  return detail === undefined ? { kind: 'skipped', stat, reason } : { kind: 'skipped', stat, reason, detail };
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? String((error as Error)?.message ?? error);
}
