import { howItEnded, type AgentConnection } from '../acp/agentConnection';
import { ConnectionClosedError, ErrorCode, RpcError } from '../acp/errors';
import { stripAnsi } from '../shared/ansi';
import * as l10n from '@vscode/l10n';

/** The steps from "configured" to "a session is open"; `spawn` is finding and starting the program. */
export type StartStep = 'spawn' | 'initialize' | 'authenticate' | 'session/new' | 'session/load' | 'session/resume';

/**
 * Why an agent could not start a session (or continue one after a restart), kept by the session manager and shown in
 * the panel until the user acts on it. No `vscode`: built from the error alone.
 */
export interface StartFailure {
  /** Names this failure in the panel's intents (the page may show an older one). */
  readonly id: string;
  readonly agentId: string;
  readonly agentName: string;
  /** The conversation that could not continue; undefined when a new session could not start. */
  readonly sessionKey?: string;
  readonly step: StartStep;
  /** What failed, in Howdah's words. */
  readonly message: string;
  /** The agent's own words: the message of the JSON-RPC error it answered. */
  readonly agentMessage?: string;
  /** The last lines the agent wrote to stderr, control sequences removed (at most STDERR_LINES and STDERR_CHARS). */
  readonly stderr: readonly string[];
  /** The failure came from signing in (the agent asked and it did not happen): offer Sign in. */
  readonly signIn: boolean;
}

export const STDERR_LINES = 20;
export const STDERR_CHARS = 4096;

const origins = new WeakMap<object, { step: StartStep; connection?: AgentConnection }>();

/** Remembers that `error` came from `step` (on `connection`, whose stderr explains it); the innermost step wins. */
export function markStep<E>(error: E, step: StartStep, connection?: AgentConnection): E {
  if (typeof error === 'object' && error !== null && !origins.has(error)) origins.set(error, { step, connection });
  return error;
}

/** Runs `call`; what it throws is marked as coming from `step`. */
export async function during<T>(step: StartStep, connection: AgentConnection | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw markStep(error, step, connection);
  }
}

let sequence = 0;

/** The failure `error` describes: which step, in whose words, with the agent's last stderr lines. */
export function toStartFailure(agent: { readonly id: string; readonly name: string }, error: unknown, sessionKey?: string): StartFailure {
  const origin = typeof error === 'object' && error !== null ? origins.get(error) : undefined;
  const step = origin?.step ?? 'initialize';
  const text = error instanceof Error ? error.message : String(error);
  let message: string;
  let agentMessage: string | undefined;
  let stderr: readonly string[] = origin?.connection?.process.stderrTail() ?? [];
  if (error instanceof ConnectionClosedError) {
    stderr = error.stderrTail;
    const how = howItEnded({ code: error.exitCode, signal: error.signal });
    message = error.exitCode === null && !error.signal ? l10n.t('{0} {1}.', agent.name, how) : l10n.t('{0} {1} during {2}.', agent.name, how, step);
  } else if (error instanceof RpcError) {
    message = error.code === ErrorCode.authRequired ? l10n.t('{0} asks you to sign in ({1}, error {2}).', agent.name, step, error.code) : l10n.t('{0} failed (error {1}).', step, error.code);
    agentMessage = error.message;
  } else {
    message = step === 'spawn' || step === 'authenticate' ? text : l10n.t('{0} failed: {1}', step, text);
  }
  return {
    id: `f${++sequence}`,
    agentId: agent.id,
    agentName: agent.name,
    ...(sessionKey ? { sessionKey } : {}),
    step,
    message,
    ...(agentMessage !== undefined ? { agentMessage } : {}),
    stderr: lastLines(stderr),
    signIn: step === 'authenticate' || (error instanceof RpcError && error.code === ErrorCode.authRequired),
  };
}

/** The last `maxLines` lines, control sequences removed, within `maxChars` (the oldest kept line cut at its start). */
export function lastLines(lines: readonly string[], maxLines = STDERR_LINES, maxChars = STDERR_CHARS): string[] {
  const out: string[] = [];
  let chars = 0;
  for (let i = lines.length - 1; i >= 0 && out.length < maxLines && chars < maxChars; i--) {
    let line = stripAnsi(lines[i]);
    if (chars + line.length > maxChars) line = `…${line.slice(line.length - (maxChars - chars) + 1)}`;
    chars += line.length;
    out.unshift(line);
  }
  return out;
}

/**
 * The start failures the panel shows until the user acts on them (Retry, another session, Dismiss): the last new
 * session's, held here, and each conversation's failed restart, held on that conversation.
 */
export class StartFailures {
  private newSession: StartFailure | undefined;

  constructor(private readonly changed: () => void) {}

  /** The last new session's failure, else the failed restart of the conversation in front. */
  current(active: { startFailure: StartFailure | undefined } | undefined): StartFailure | undefined {
    return this.newSession ?? active?.startFailure;
  }

  newSessionFailed(failure: StartFailure): void {
    this.newSession = failure;
    this.changed();
  }

  clearNewSession(): void {
    if (!this.newSession) return;
    this.newSession = undefined;
    this.changed();
  }

  /** Only the failure shown (`id`): a click on an outdated card does nothing. */
  dismiss(id: string, active: { startFailure: StartFailure | undefined } | undefined): void {
    if (this.newSession?.id === id) this.newSession = undefined;
    else if (active?.startFailure?.id === id) active.startFailure = undefined;
    else return;
    this.changed();
  }
}

/** What the error notice says when `agent` could not start a session. */
export function describeStartFailure(agent: { readonly name: string }, error: unknown): string {
  if (error instanceof ConnectionClosedError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return l10n.t('{0} could not start a session: {1}', agent.name, message);
}
