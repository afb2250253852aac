import type { Entry } from '../session/state';

/** Where a conversation stands among the branches of one of its user turns (src/session/branches.ts). */
export interface BranchPositionLike {
  readonly keys: readonly string[];
  readonly index: number;
}

/** The branches of conversations, as the panel needs them (src/agents/branchIndex.ts). */
export interface ConversationBranches {
  onDidChange(listener: () => void): { dispose(): void };
  positionsIn(key: string): ReadonlyMap<number, BranchPositionLike>;
  /** Shows the branch before or after; the key shown, or undefined when there is none that way. */
  switchTo(key: string, turn: number, direction: -1 | 1): Promise<string | undefined>;
}

export interface BranchView {
  /** 1-based, as shown: "Branch 1 of 2". */
  readonly index: number;
  readonly total: number;
}

/**
 * The branch control of each user message, looked up by entry id. Which turn a message started is counted once over
 * the transcript and again only when a message not seen yet is asked about (one just sent); a conversation without
 * branches costs nothing.
 */
export function branchLookup(entries: () => readonly Entry[], positions: ReadonlyMap<number, BranchPositionLike>): (entryId: number) => BranchView | undefined {
  if (positions.size === 0) return () => undefined;
  let turns = new Map<number, number>();
  return (entryId) => {
    if (!turns.has(entryId)) turns = userTurns(entries());
    const turn = turns.get(entryId);
    const position = turn === undefined ? undefined : positions.get(turn);
    return position && { index: position.index + 1, total: position.keys.length };
  };
}

function userTurns(entries: readonly Entry[]): Map<number, number> {
  const turns = new Map<number, number>();
  for (const entry of entries) if (entry.kind === 'message' && entry.role === 'user') turns.set(entry.id, turns.size);
  return turns;
}
