/**
 * How often a crashed agent is restarted by itself: at most `limit` automatic restarts within `windowMs`, after which
 * the user decides. Pure: the clock is passed in.
 */
export class RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(
    private readonly limit = 3,
    private readonly windowMs = 5 * 60 * 1000,
  ) {}

  /** Whether an automatic restart is allowed at `now`; if so, it is counted. */
  tryRestart(now: number): boolean {
    while (this.restarts.length && now - this.restarts[0] >= this.windowMs) this.restarts.shift();
    if (this.restarts.length >= this.limit) return false;
    this.restarts.push(now);
    return true;
  }

  /** Restarts counted in the window ending at `now`. */
  recent(now: number): number {
    return this.restarts.filter((t) => now - t < this.windowMs).length;
  }
}
