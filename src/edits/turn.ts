import type { ToolCallState } from '../session/state';
import type { Sandbox } from '../workspace/sandbox';
import type { BaselineEvidence, DiffReport, Known } from './baselines';
import type { ContentRef } from './editsState';
import { PROMPT_WAIT_MS, type TurnBefore, type TurnSnapshots } from './turnSnapshots';

/** What a file-system event or a report says happened to a path, strongest first when several merge. */
export type Hint = 'created' | 'changed' | 'deleted' | 'reported' | 'swept';

export interface TrackedSession {
  readonly key: string;
  /** The session's current sandbox (replaced when the agent restarts with new file access). */
  sandbox: Sandbox;
  turn?: Turn;
  /** The end-of-turn sweep of the last turn, which the next turn's snapshot waits for. */
  sweep?: Promise<void>;
}

/** One prompt turn of one session: what it changed first, and the clues gathered for baselines. */
export class Turn {
  running = true;
  endedAt = 0;
  /** path → content before this turn's first change of it (the checkpoint). */
  readonly changed = new Map<string, ContentRef>();
  readonly evidence = new Map<string, BaselineEvidence>();
  /** Read when an edit tool call naming the path was announced. */
  readonly snapshots = new Map<string, Promise<Known | undefined>>();
  /** path → toolCallId → that call's latest diff, calls in the order first seen. */
  readonly diffs = new Map<string, Map<string, DiffReport>>();
  readonly mentioned = new Set<string>();
  /** path → the tool calls that named it (diffs and locations), first first. */
  readonly callsByPath = new Map<string, Set<string>>();
  lastToolCallId: string | undefined;
  /** Its findings went to the transcript (later ones follow one by one). */
  reported = false;
  /** The roots' content before the turn (the snapshot the prompt waited for); undefined when snapshots are off. */
  before: Promise<TurnBefore | undefined> | undefined;
  /** Paths whose `fs/write_text_file` the user refused in this turn. */
  readonly refused = new Set<string>();
  /** Files changed in this turn whose content before is not known exactly, and why. */
  readonly unrecorded = new Map<string, string>();
  /** Files this turn put under review (a later change after a decision is reviewed from what the user kept). */
  readonly reviewed = new Set<string>();
  /** Files this turn changed that have no text review (binary, or unrecorded): see `OpaqueChange`. */
  readonly opaque = new Set<string>();

  constructor(
    readonly index: number,
    readonly session: TrackedSession,
  ) {}

  diffsFor(path: string): DiffReport[] {
    return [...(this.diffs.get(path)?.values() ?? [])];
  }

  named(path: string, toolCallId: string): void {
    let calls = this.callsByPath.get(path);
    if (!calls) this.callsByPath.set(path, (calls = new Set()));
    calls.add(toolCallId);
  }

  /**
   * A tool call appeared or changed: keeps its diffs and the files it names (`inside` maps a path into the sandbox,
   * or to undefined). Returns the files it names and those its diffs report.
   */
  noteToolCall(call: ToolCallState, inside: (p: string) => string | undefined): { named: string[]; diffs: string[] } {
    const named: string[] = [];
    const diffs: string[] = [];
    this.lastToolCallId = call.toolCallId;
    for (const item of call.content) {
      if (item.type !== 'diff') continue;
      const p = inside(item.path);
      if (!p) continue;
      named.push(p);
      diffs.push(p);
      let calls = this.diffs.get(p);
      if (!calls) this.diffs.set(p, (calls = new Map()));
      calls.set(call.toolCallId, { oldText: item.oldText, newText: item.newText });
    }
    for (const location of call.locations) {
      const p = inside(location.path);
      if (p) named.push(p);
    }
    for (const p of named) {
      this.mentioned.add(p);
      this.named(p, call.toolCallId);
    }
    return { named, diffs };
  }

  /** The tool calls a finding about `path` belongs on: those that named it, else the turn's latest. */
  callsFor(path: string): string[] {
    const named = [...(this.callsByPath.get(path) ?? [])];
    return named.length > 0 ? named : this.lastToolCallId ? [this.lastToolCallId] : [];
  }
}

export function strength(hint: Hint): number {
  return hint === 'created' ? 4 : hint === 'deleted' ? 3 : hint === 'changed' ? 2 : hint === 'swept' ? 1 : 0;
}

/**
 * Churn that is never an edit to review: git's object store and logs, our own temporary files. Dependencies
 * (`node_modules`) only outside a turn: during one, an agent that changes them changed something the user has.
 */
export function ignored(path: string, inTurn: boolean): boolean {
  const parts = path.split(/[\\/]/);
  if (!inTurn && parts.includes('node_modules')) return true;
  const git = parts.lastIndexOf('.git');
  if (git >= 0) {
    const inside = parts.slice(git + 1);
    // Hooks and config steer what runs: an agent writing them is a change to see.
    return !(inside[0] === 'hooks' || (inside.length === 1 && inside[0] === 'config'));
  }
  return /\.howdah-[0-9a-f]+\.tmp$/.test(path);
}

/**
 * Before the prompt goes out: the roots' snapshot (after the previous turn's sweep), waited for at most
 * `PROMPT_WAIT_MS`. Past that the prompt is sent and the snapshot, when done, is marked late (`TurnBefore.late`)
 * before anyone reads it.
 */
export async function snapshotBeforePrompt(turn: Turn, session: TrackedSession, snapshots: TurnSnapshots, log: (line: string) => void): Promise<void> {
  let promptSent = false;
  const previousSweep = session.sweep;
  turn.before = (async () => {
    await previousSweep;
    const before = await snapshots.capture(session.sandbox.roots);
    if (before && promptSent) before.late = true;
    return before;
  })().catch((e: unknown) => {
    log(`No snapshot before turn ${turn.index}: ${String(e)}`);
    return undefined;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inTime = await Promise.race([turn.before.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), PROMPT_WAIT_MS)))]);
  clearTimeout(timer);
  if (!inTime) {
    promptSent = true;
    log(`The snapshot before turn ${turn.index} took over ${PROMPT_WAIT_MS} ms: the prompt went first`);
  }
}
