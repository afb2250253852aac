import { strength, type Hint, type Turn } from './turn';

/**
 * What happened to each path, handled one path at a time in order, never interleaved: watcher events are delayed a
 * moment and merged (the strongest hint wins), then run through `handle` behind that path's earlier work. Plain Node.
 */
export class PathQueue {
  private readonly queued = new Map<string, { hint: Hint; timer: ReturnType<typeof setTimeout> }>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly handle: (path: string, hint: Hint, turn?: Turn) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  /** After `delayMs`, merged with what else arrives for the path meanwhile. */
  later(path: string, hint: Hint, delayMs: number): void {
    const previous = this.queued.get(path);
    if (previous) clearTimeout(previous.timer);
    const strongest = previous && strength(previous.hint) > strength(hint) ? previous.hint : hint;
    const timer = setTimeout(() => {
      this.queued.delete(path);
      void this.now(path, strongest);
    }, delayMs);
    this.queued.set(path, { hint: strongest, timer });
  }

  /** Behind the path's earlier work; resolves when this is handled. */
  now(path: string, hint: Hint, turn?: Turn): Promise<void> {
    const next = (this.chains.get(path) ?? Promise.resolve()).then(() => this.handle(path, hint, turn)).catch((e: unknown) => this.log(`Could not track ${path}: ${String(e)}`));
    this.chains.set(path, next);
    void next.then(() => {
      if (this.chains.get(path) === next) this.chains.delete(path);
    });
    return next;
  }

  /** Resolves when everything started so far is handled. */
  settled(): Promise<unknown> {
    return Promise.all([...this.chains.values()]);
  }

  dispose(): void {
    for (const q of this.queued.values()) clearTimeout(q.timer);
    this.queued.clear();
  }
}
