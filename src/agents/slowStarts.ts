import type { StartStep } from './startFailure';
import * as l10n from '@vscode/l10n';

/** The start calls the user may cancel when they hang. */
export type CancellableStep = Extract<StartStep, 'authenticate' | 'session/new' | 'session/load' | 'session/resume'>;

/** A start call that has not answered for `SLOW_START_MS`: the panel's start area offers Cancel. */
export interface SlowStart {
  readonly id: string;
  readonly agentName: string;
  readonly step: CancellableStep;
}

/** How long a start call may take before Cancel is offered. */
export const SLOW_START_MS = 5000;

/** The user cancelled a start call that did not answer: the start failed, and its agent is stopped with it. */
export class StartCancelledError extends Error {
  constructor(agentName: string, step: CancellableStep) {
    super(l10n.t('You cancelled {0}: {1} had not answered it.', step, agentName));
    this.name = 'StartCancelledError';
  }
}

type Schedule = (callback: () => void, ms: number) => { dispose(): void };
const realSchedule: Schedule = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return { dispose: () => clearTimeout(timer) };
};

let sequence = 0;

/**
 * Start calls (`authenticate`, `session/new`, `session/load`, `session/resume`) that hang. Each runs with an
 * `AbortSignal`; after `SLOW_START_MS` without an answer it is listed (the gate shows Cancel). Cancel aborts the
 * signal — the protocol layer sends `$/cancel_request` — and stops waiting at once: the call rejects with
 * `StartCancelledError`, and the start's failure path stops the agent (stdin closed, killed if it has not exited 2 s
 * later), so an agent that ignores the cancel cannot keep the session starting. No `vscode`: unit-tested with its
 * `schedule`.
 */
export class SlowStarts {
  private readonly slow = new Map<string, SlowStart & { cancel(): void }>();

  constructor(
    private readonly changed: () => void,
    private readonly schedule: Schedule = realSchedule,
  ) {}

  /** The oldest call waiting long enough to be cancelled. */
  get current(): SlowStart | undefined {
    const first = this.slow.values().next().value;
    return first && { id: first.id, agentName: first.agentName, step: first.step };
  }

  /** Cancels the slow call `id` (ignored unless it is still waiting). */
  cancel(id: string): void {
    this.slow.get(id)?.cancel();
  }

  async run<T>(agentName: string, step: CancellableStep, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const id = `w${++sequence}`;
    let cancelled!: (error: Error) => void;
    const stopped = new Promise<never>((_, reject) => (cancelled = reject));
    const timer = this.schedule(() => {
      this.slow.set(id, {
        id,
        agentName,
        step,
        cancel: () => {
          controller.abort();
          cancelled(new StartCancelledError(agentName, step));
        },
      });
      this.changed();
    }, SLOW_START_MS);
    const answer = call(controller.signal);
    // Once we stop waiting, the agent's late answer (or error) must not surface as an unhandled rejection.
    answer.catch(() => undefined);
    try {
      return await Promise.race([answer, stopped]);
    } finally {
      timer.dispose();
      if (this.slow.delete(id)) this.changed();
    }
  }
}
