import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { eachLimited, Pacer } from './pace';

/**
 * The snapshot's content store: `<dir>/<2 hex>/<62 hex>`, the bytes of each SHA-256 once. Written atomically (temp
 * file in the same folder, then rename); read back verified, so a damaged blob is as good as a missing one. Which
 * blobs exist is kept in memory (only this store writes here): seeded with the hashes the saved stat cache refers to,
 * and, for any other hash, asked of the disk once. A store that did not exist yet needs no asking.
 */
export class SnapshotBlobs {
  private known: Set<string> | undefined;
  /** True when `known` is everything on disk (a new store, or just listed), so a miss needs no check. */
  private complete = false;
  private readonly shards = new Set<string>();

  constructor(readonly dir: string) {}

  static hash(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  file(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  private seeder: () => Iterable<string> = () => [];

  /** The hashes the stat cache says were stored, asked for only if this store writes here (not with the worker). */
  seed(hashes: () => Iterable<string>): void {
    if (!this.known) this.seeder = hashes;
  }

  /** Starts knowing the seed. Cheap: nothing is listed. */
  async open(): Promise<void> {
    if (this.known) return;
    const exists = await fs.stat(this.dir).then(
      () => true,
      () => false,
    );
    this.known ??= new Set(exists ? this.seeder() : []);
    this.complete = !exists;
  }

  /** Stores the bytes under their hash unless already there. Returns true when a blob was written. */
  async put(hash: string, bytes: Uint8Array): Promise<boolean> {
    if (await this.stored(hash)) return false;
    const file = this.file(hash);
    await this.shard(hash);
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temp, bytes).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        // The shard went away under us (someone cleared the store): make it again, once.
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(temp, bytes);
      });
      await fs.rename(temp, file);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    this.known!.add(hash);
    return true;
  }

  /** A temp file to stream large content into; `commit` renames it to its hash (or drops it when already stored). */
  async temp(): Promise<{ file: string; commit(hash: string): Promise<boolean>; discard(): Promise<void> }> {
    await this.open();
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `stream.${randomBytes(6).toString('hex')}.tmp`);
    return {
      file,
      commit: async (hash) => {
        if (await this.stored(hash)) {
          await fs.unlink(file).catch(() => undefined);
          return false;
        }
        await this.shard(hash);
        await fs.rename(file, this.file(hash));
        this.known!.add(hash);
        return true;
      },
      discard: () => fs.unlink(file).catch(() => undefined),
    };
  }

  async read(hash: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const bytes = await fs.readFile(this.file(hash)).catch(() => undefined);
    if (!bytes || SnapshotBlobs.hash(bytes) !== hash) return undefined;
    return bytes;
  }

  /** Deletes every blob not in `keep`, and temp files left by a crash. Returns how many blobs went. */
  async collect(keep: (hash: string) => boolean): Promise<number> {
    await this.open();
    const pacer = new Pacer();
    const doomed: string[] = [];
    const listed = await this.list();
    this.known = new Set(listed);
    this.complete = true;
    for (const hash of listed) {
      if (!keep(hash)) doomed.push(hash);
      await pacer.tick();
    }
    await eachLimited(doomed, 8, async (hash) => {
      await fs.unlink(this.file(hash)).catch(() => undefined);
      this.known!.delete(hash);
    });
    const stray = await fs.readdir(this.dir).catch(() => [] as string[]);
    await eachLimited(
      stray.filter((n) => n.endsWith('.tmp')),
      8,
      (n) => fs.unlink(path.join(this.dir, n)).catch(() => undefined),
    );
    return doomed.length;
  }

  /** Every blob's hash on disk; temp files inside shards are removed on the way. */
  private async list(): Promise<string[]> {
    const shards = (await fs.readdir(this.dir).catch(() => [] as string[])).filter((s) => /^[0-9a-f]{2}$/.test(s));
    const hashes: string[] = [];
    await eachLimited(shards, 8, async (shard) => {
      this.shards.add(shard);
      for (const name of await fs.readdir(path.join(this.dir, shard)).catch(() => [] as string[])) {
        if (/^[0-9a-f]{62}$/.test(name)) hashes.push(shard + name);
        else if (name.endsWith('.tmp')) await fs.unlink(path.join(this.dir, shard, name)).catch(() => undefined);
      }
    });
    return hashes;
  }

  private async stored(hash: string): Promise<boolean> {
    await this.open();
    if (this.known!.has(hash)) return true;
    if (this.complete) return false;
    const there = await fs.access(this.file(hash)).then(
      () => true,
      () => false,
    );
    if (there) this.known!.add(hash);
    return there;
  }

  private async shard(hash: string): Promise<void> {
    const shard = hash.slice(0, 2);
    if (this.shards.has(shard)) return;
    await fs.mkdir(path.join(this.dir, shard), { recursive: true });
    this.shards.add(shard);
  }
}
