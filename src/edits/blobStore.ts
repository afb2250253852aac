import { createHash, randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * File contents by SHA-256, kept in memory and written to the extension's storage folder (never the workspace), so
 * baselines and checkpoints survive a reload and identical contents are stored once. Writes are batched by `flush`;
 * past the memory budget, contents already on disk are dropped from memory and read back when asked for. Plain Node.
 */
export class BlobStore {
  private readonly memory = new Map<string, Uint8Array>();
  private readonly unwritten = new Set<string>();
  private memoryBytes = 0;

  constructor(
    private readonly dir: string | undefined,
    private readonly memoryBudget = 256 * 1024 * 1024,
  ) {}

  static hash(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** Stores the bytes (a copy) and returns their hash. Cheap when the same content is stored again. */
  put(bytes: Uint8Array): string {
    const hash = BlobStore.hash(bytes);
    if (!this.memory.has(hash)) {
      this.memory.set(hash, Uint8Array.from(bytes));
      this.memoryBytes += bytes.length;
      if (this.dir) this.unwritten.add(hash);
    }
    return hash;
  }

  has(hash: string): boolean {
    return this.memory.has(hash);
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    const held = this.memory.get(hash);
    if (held) return held;
    if (!this.dir) return undefined;
    const bytes = await fs.readFile(this.file(hash)).catch(() => undefined);
    // A damaged blob is as good as a missing one: never hand out content that is not what was stored.
    if (!bytes || BlobStore.hash(bytes) !== hash) return undefined;
    return bytes;
  }

  /**
   * Writes what is only in memory (only the `referenced` contents when given: the rest is transient, like what an
   * open document held); then, over budget, drops written contents from memory (oldest first).
   */
  async flush(referenced?: ReadonlySet<string>): Promise<void> {
    if (!this.dir) return;
    const pending = [...this.unwritten].filter((hash) => !referenced || referenced.has(hash));
    for (const hash of pending) {
      const bytes = this.memory.get(hash);
      if (bytes) await writeAtomic(this.file(hash), bytes);
      this.unwritten.delete(hash);
    }
    if (this.memoryBytes <= this.memoryBudget) return;
    for (const [hash, bytes] of this.memory) {
      if (this.memoryBytes <= this.memoryBudget / 2) break;
      if (this.unwritten.has(hash)) continue;
      this.memory.delete(hash);
      this.memoryBytes -= bytes.length;
    }
  }

  /** `flush` for shutdown, when there is no time for promises. */
  flushSync(referenced?: ReadonlySet<string>): void {
    if (!this.dir) return;
    for (const hash of [...this.unwritten]) {
      if (referenced && !referenced.has(hash)) continue;
      const bytes = this.memory.get(hash);
      if (bytes) {
        const file = this.file(hash);
        fsSync.mkdirSync(path.dirname(file), { recursive: true });
        fsSync.writeFileSync(`${file}.tmp`, bytes);
        fsSync.renameSync(`${file}.tmp`, file);
      }
      this.unwritten.delete(hash);
    }
  }

  /** Deletes stored contents nothing refers to any more. */
  async collect(referenced: ReadonlySet<string>): Promise<number> {
    for (const [hash, bytes] of this.memory) {
      if (referenced.has(hash)) continue;
      this.memory.delete(hash);
      this.unwritten.delete(hash);
      this.memoryBytes -= bytes.length;
    }
    if (!this.dir) return 0;
    let removed = 0;
    const shards = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await fs.readdir(path.join(this.dir, shard)).catch(() => [] as string[])) {
        if (referenced.has(shard + name)) continue;
        await fs.unlink(path.join(this.dir, shard, name)).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }

  get bytesInMemory(): number {
    return this.memoryBytes;
  }

  private file(hash: string): string {
    return path.join(this.dir!, hash.slice(0, 2), hash.slice(2));
  }
}

/** Temp file in the same folder, then rename: a crash leaves the old file or the new one, never half of one. */
export async function writeAtomic(file: string, data: Uint8Array | string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}
