import { createHash } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { SnapshotBlobs } from './blobs';
import { sameStat, type FileRecord, type StatKey } from './types';

/** Above this, content is hashed and copied chunk by chunk (bounded memory, the event loop free between chunks). */
const CHUNK = 1024 * 1024;
/** Opening never follows a link that replaced the file since the walk, nor blocks on a FIFO that did. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const ATTEMPTS = 3;

export interface ReadLimits {
  maxFileBytes: number;
  /** Called once the hash is known: may this content be stored? (Accounts for it when it answers yes.) */
  admit(hash: string, size: number): boolean;
}

export interface ReadOutcome {
  record: FileRecord;
  bytesRead: number;
  /** Bytes written to the store (0 when the content was already there). */
  bytesStored: number;
}

export function statKey(st: BigIntStats): StatKey {
  return { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) };
}

/**
 * Reads a regular file, hashes it and stores its bytes. The stat recorded is the open file's, taken before and
 * checked after the read: a file that changes while being read is read again (up to 3 times), so a record never
 * pairs a stat with content it did not have. Failures become `skipped: 'unreadable'` records, never exceptions.
 */
export async function readFileRecord(abs: string, walked: StatKey, blobs: SnapshotBlobs, limits: ReadLimits): Promise<ReadOutcome> {
  let bytesRead = 0;
  let stat = walked;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(abs, OPEN_FLAGS);
      const before = await handle.stat({ bigint: true });
      stat = statKey(before);
      if (!before.isFile()) return { record: skipped(stat, 'unreadable', 'not a regular file'), bytesRead, bytesStored: 0 };
      if (stat.size > limits.maxFileBytes) return { record: skipped(stat, 'too-large', `${stat.size} bytes`), bytesRead, bytesStored: 0 };
      const read = stat.size <= CHUNK ? await readSmall(handle) : await readLarge(handle, blobs);
      bytesRead += read.size;
      const after = statKey(await handle.stat({ bigint: true }));
      if (!sameStat(stat, after) || read.size !== stat.size) {
        await read.discard?.();
        continue;
      }
      if (!limits.admit(read.hash, read.size)) {
        await read.discard?.();
        return { record: skipped(stat, 'over-total'), bytesRead, bytesStored: 0 };
      }
      const wrote = read.bytes ? await blobs.put(read.hash, read.bytes) : await read.commit!(read.hash);
      return { record: Object.freeze({ kind: 'file', stat, hash: read.hash }), bytesRead, bytesStored: wrote ? read.size : 0 };
    } catch (error) {
      return { record: skipped(stat, 'unreadable', codeOf(error)), bytesRead, bytesStored: 0 };
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }
  return { record: skipped(stat, 'unreadable', 'changed while being read'), bytesRead, bytesStored: 0 };
}

export async function readLinkRecord(abs: string, walked: StatKey): Promise<FileRecord> {
  try {
    return Object.freeze({ kind: 'symlink', stat: walked, target: await fs.readlink(abs) });
  } catch (error) {
    return skipped(walked, 'unreadable', codeOf(error));
  }
}

interface Read {
  hash: string;
  size: number;
  bytes?: Buffer;
  commit?: (hash: string) => Promise<boolean>;
  discard?: () => Promise<void>;
}

async function readSmall(handle: fs.FileHandle): Promise<Read> {
  const bytes = await handle.readFile();
  return { hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, bytes };
}

/** Hashes and copies to a temp file in the store, 1 MiB at a time (each chunk's I/O lets the event loop run). */
async function readLarge(handle: fs.FileHandle, blobs: SnapshotBlobs): Promise<Read> {
  const temp = await blobs.temp();
  const out = await fs.open(temp.file, 'w');
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK);
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, size);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      await out.write(chunk, 0, bytesRead);
      size += bytesRead;
    }
    await out.close();
  } catch (error) {
    await out.close().catch(() => undefined);
    await temp.discard();
    throw error;
  }
  return { hash: hash.digest('hex'), size, commit: temp.commit, discard: temp.discard };
}

function skipped(stat: StatKey, reason: 'too-large' | 'over-total' | 'unreadable', detail?: string): FileRecord {
  return Object.freeze(detail === undefined ? { kind: 'skipped', stat, reason } : { kind: 'skipped', stat, reason, detail });
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? String((error as Error)?.message ?? error);
}
