/**
 * Keeping the extension host's event loop free: synchronous loops over tens of thousands of entries give way every
 * few milliseconds, and file-system calls are limited to a few outstanding at once (they share libuv's 4 threads
 * with everything else the extension host does).
 */

/** Lets other callbacks run when more than `budgetMs` of synchronous work has passed since the last pause. */
export class Pacer {
  private last = performance.now();

  constructor(private readonly budgetMs = 8) {}

  /** Cheap to call per item: reads the clock only every 64 calls. */
  private calls = 0;
  due(): boolean {
    if ((++this.calls & 63) !== 0) return false;
    return performance.now() - this.last > this.budgetMs;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }

  /** `await pacer.tick()` in a loop: pauses only when due. */
  tick(): Promise<void> | undefined {
    return this.due() ? this.pause() : undefined;
  }
}

/** Runs `fn` over `items` with at most `limit` promises pending; resolves when all have settled (never rejects). */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        await fn(items[i], i);
      } catch {
        // fn reports its own failures; one item failing must not stop the others.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
