import { Emitter, type Event } from '../base/event';

/**
 * Every state a session's agent can be in, and who changes it. Only src/agents calls the transitions below: the
 * session manager (sessionManager.ts: a new session starts, is ready or fails; a turn starts and ends), its runner
 * (sessionRunner.ts: restart, stop, crash) and the agent starter while it asks the user to sign in (agentStarter.ts).
 * Nothing else writes the state; the panel, the status bar and the crash notice (crashNotice.ts) listen.
 *
 *   starting ⇄ signing-in ──────────────┐                 (a new session: the agent starts, maybe asks to sign in)
 *   restarting ⇄ signing-in ────────────┤                 (the same conversation on a new agent process)
 *                                       ▼
 *                      ready ⇄ prompting                  (a turn runs)
 *                        │         │
 *                        ├─────────┴──► stopping ──► stopped {reason}
 *                        └──────────────────────────► crashed {exit code, stderr}
 *   stopped / crashed ──► restarting                      (the next message, Restart, or the restart policy)
 *   starting / restarting ──► stopped {start-failed}      (the agent could not start or continue the session)
 */
export type LifecycleState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'restarting' }
  /** The agent waits for the user to sign in; `restart` says which start it interrupts. */
  | { readonly kind: 'signing-in'; readonly restart: boolean }
  | { readonly kind: 'ready' }
  | { readonly kind: 'prompting'; readonly turn: number }
  | { readonly kind: 'stopping'; readonly reason: StopReason }
  | { readonly kind: 'stopped'; readonly reason: StopReason }
  | { readonly kind: 'crashed'; readonly crash: Crash };

export type LifecycleKind = LifecycleState['kind'];

/** Why a session's agent is not running, when Howdah (or the user) stopped it or it never started. */
export type StopReason =
  /** The user closed or deleted the conversation. */
  | { readonly kind: 'user' }
  /** The window is closing or reloading. */
  | { readonly kind: 'window-closing' }
  /** Restored after a window reload: the agent starts again with the next message. */
  | { readonly kind: 'restored' }
  /** Opened from the agent's own history: its agent is about to start. */
  | { readonly kind: 'not-started' }
  /** Agents do not run in an untrusted workspace. */
  | { readonly kind: 'untrusted'; readonly message: string }
  /** The agent could not start, sign in, or open or continue the session. */
  | { readonly kind: 'start-failed'; readonly message: string };

/** The agent ended by itself. */
export interface Crash {
  /** The first line says how it ended ("exited with code 1"), then its last output. */
  readonly message: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: readonly string[];
}

export interface LifecycleChange {
  readonly old: LifecycleState;
  readonly current: LifecycleState;
}

/** States from which each state may be entered. */
const ENTERED_FROM: { readonly [K in LifecycleKind]: readonly LifecycleKind[] } = {
  starting: ['signing-in'],
  restarting: ['ready', 'prompting', 'stopped', 'crashed', 'signing-in'],
  'signing-in': ['starting', 'restarting'],
  ready: ['starting', 'restarting', 'prompting'],
  prompting: ['ready'],
  stopping: ['ready', 'prompting', 'starting', 'restarting', 'signing-in', 'crashed', 'stopped'],
  stopped: ['stopping', 'starting', 'restarting', 'signing-in'],
  crashed: ['ready', 'prompting'],
};

export class IllegalTransitionError extends Error {
  constructor(from: LifecycleKind, to: LifecycleKind) {
    super(`A session cannot go from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/**
 * The life of one session's agent as an explicit state machine: each transition is a method, the only writer of the
 * state, refusing a transition the diagram above does not have; every change fires `onDidChange` with the old and
 * the new state. Pure: no I/O, no VS Code.
 */
export class SessionLifecycle {
  private value: LifecycleState;
  private readonly changes = new Emitter<LifecycleChange>();
  readonly onDidChange: Event<LifecycleChange> = this.changes.event;

  /** A new session begins `starting`; a conversation restored without its agent begins `stopped`. */
  constructor(initial: LifecycleState = { kind: 'starting' }) {
    this.value = initial;
  }

  get state(): LifecycleState {
    return this.value;
  }

  /** The agent runs and answers: a prompt can be sent (or is running). */
  get isRunning(): boolean {
    return this.value.kind === 'ready' || this.value.kind === 'prompting';
  }

  /** An agent is being started for this session (first start or restart, signing in included). */
  get isStarting(): boolean {
    return this.value.kind === 'starting' || this.value.kind === 'restarting' || this.value.kind === 'signing-in';
  }

  /** Howdah is stopping the agent. */
  get isStopping(): boolean {
    return this.value.kind === 'stopping';
  }

  /** Not running and not being started: stopped or crashed. */
  get isDown(): boolean {
    return this.value.kind === 'stopped' || this.value.kind === 'crashed';
  }

  /** Why the agent is not running, in words; undefined while it runs or starts. */
  get downReason(): string | undefined {
    const s = this.value;
    if (s.kind === 'crashed') return s.crash.message;
    if (s.kind !== 'stopped') return undefined;
    return s.reason.kind === 'start-failed' || s.reason.kind === 'untrusted' ? s.reason.message : undefined;
  }

  signingIn(): void {
    const restart = this.value.kind === 'restarting' || (this.value.kind === 'signing-in' && this.value.restart);
    this.go({ kind: 'signing-in', restart });
  }

  /** Back from signing in: the start goes on. */
  signedIn(): void {
    if (this.value.kind !== 'signing-in') return;
    this.go(this.value.restart ? { kind: 'restarting' } : { kind: 'starting' });
  }

  restarting(): void {
    this.go({ kind: 'restarting' });
  }

  ready(): void {
    this.go({ kind: 'ready' });
  }

  /** Turn `turn` started. */
  prompting(turn: number): void {
    this.go({ kind: 'prompting', turn });
  }

  /** The turn is over; nothing when the agent is no longer running (a crash ends the turn after the fact). */
  promptEnded(): void {
    if (this.value.kind === 'prompting') this.go({ kind: 'ready' });
  }

  stopping(reason: StopReason): void {
    this.go({ kind: 'stopping', reason });
  }

  stopped(reason: StopReason): void {
    this.go({ kind: 'stopped', reason });
  }

  crashed(crash: Crash): void {
    this.go({ kind: 'crashed', crash });
  }

  dispose(): void {
    this.changes.dispose();
  }

  private go(next: LifecycleState): void {
    const old = this.value;
    if (!ENTERED_FROM[next.kind].includes(old.kind)) throw new IllegalTransitionError(old.kind, next.kind);
    this.value = next;
    this.changes.fire({ old, current: next });
  }
}
