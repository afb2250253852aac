import type { Crash } from './lifecycle';
import * as l10n from '@vscode/l10n';

/** What to do after a session's agent crashed. */
export type RestartDecision =
  /** Start it again now; `note` goes to the agent's log. */
  | { readonly action: 'restart'; readonly note: string }
  /** Leave it down and let the user decide (the UI offers Restart). */
  | { readonly action: 'ask' };

/**
 * Decides what happens after a crash, one instance per session (as `ErrorHandler` does for a language client). The
 * session manager asks it; the UI only shows what was decided. Pure: the clock is passed in.
 */
export interface RestartPolicy {
  afterCrash(crash: Crash, now: number): RestartDecision;
}

/** At most `limit` automatic restarts within `windowMs`, after which the user decides. */
export class LimitedRestarts implements RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(
    private readonly limit = 3,
    private readonly windowMs = 5 * 60 * 1000,
  ) {}

  afterCrash(_crash: Crash, now: number): RestartDecision {
    while (this.restarts.length && now - this.restarts[0] >= this.windowMs) this.restarts.shift();
    if (this.restarts.length >= this.limit) return { action: 'ask' };
    this.restarts.push(now);
    const minutes = Math.round(this.windowMs / 60_000);
    return { action: 'restart', note: l10n.t('{0} of {1} automatic restarts in {2} minutes', this.restarts.length, this.limit, minutes) };
  }
}

/** Never restarts by itself (for agents whose crashes should not be retried, and tests). */
export const neverRestart: RestartPolicy = { afterCrash: () => ({ action: 'ask' }) };
