import { comparableText, diffShape, sameTextIgnoringBomAndEol, withoutBom } from '../acp/compat';
import { adaptEol } from '../workspace/textCodec';

/**
 * Which content a file had before the agent changed it, from the evidence at hand. For our own writes the answer is
 * exact (we read the file just before writing). For agents that write to disk themselves, or through a command they
 * run, the snapshot of the session's roots taken before the turn is exact too (`turn`: bytes, or "absent" for a file
 * created in the turn). Where the snapshot has nothing (a file it skipped or excluded) it is the first source that
 * has it, best first: what this session last saw of the file, the open document's last known content, the `oldText`
 * of a whole-file diff (never a fragment's), a snapshot taken when an edit tool call naming the file was announced
 * (if it was read too late, after the write: the file now with the turn's fragments undone), the version in git. A
 * file that appears with no earlier trace is a created file. Plain Node.
 */

export type BaselineSource = 'disk' | 'turn' | 'session' | 'document' | 'diff' | 'snapshot' | 'git' | 'created';

/** Best first. A baseline may be upgraded within its turn when a better source turns up later (a late diff). */
export const BASELINE_SOURCES: readonly BaselineSource[] = ['disk', 'turn', 'session', 'document', 'diff', 'snapshot', 'git', 'created'];

export function sourceRank(source: BaselineSource): number {
  return BASELINE_SOURCES.indexOf(source);
}

/** What a file held: its text (and bytes when read from disk), or null when it did not exist. */
export type Known = { readonly text: string; readonly bytes?: Uint8Array } | null;

export interface DiffReport {
  readonly oldText?: string | null;
  readonly newText: string;
}

export interface BaselineEvidence {
  /** Read just before we wrote the file ourselves (fs/write_text_file): exact. */
  disk?: Known;
  /** The file in the snapshot taken before the turn (exact bytes; null: it did not exist then). */
  turn?: Known;
  /** The content this extension last saw of the file while a session was tracking it. */
  session?: Known;
  /** The open document's content at its last open or save. */
  document?: Known;
  /** `diff` contents reported for this path in this turn, earliest tool call first (each call's latest report). */
  diffs?: readonly DiffReport[];
  /** Read when an edit-kind tool call naming the file was announced (maybe already after the write: a weak source). */
  snapshot?: Known;
  /** `git show HEAD:path`; absent when the file is not in HEAD (which says nothing about the working tree). */
  git?: Known;
  /** The change showed itself as a file appearing (a create event). */
  appeared?: boolean;
  /** The file now (null = gone): a diff whose `newText` is the whole file has an `oldText` that is the whole file. */
  current: Known;
}

export interface Baseline {
  readonly source: BaselineSource;
  readonly content: Known;
}

export function chooseBaseline(e: BaselineEvidence): Baseline | undefined {
  if (e.disk !== undefined) return { source: 'disk', content: e.disk };
  if (e.turn !== undefined) return { source: 'turn', content: e.turn };
  if (e.session !== undefined) return { source: 'session', content: e.session };
  if (e.document !== undefined) return { source: 'document', content: e.document };
  const fromDiff = wholeFileOldText(e.diffs?.[0], e.current, e.snapshot ?? e.git ?? undefined);
  if (fromDiff !== undefined) return { source: 'diff', content: { text: fromDiff } };
  if (e.snapshot !== undefined) {
    if (!snapshotTooLate(e)) return { source: 'snapshot', content: e.snapshot };
    // Codex applies a patch the moment it announces it (no permission asked): the snapshot already holds the
    // result. Its fragments, taken back out of the file as it is now, give what was there before.
    const before = e.current ? revertFragments(e.current.text, e.diffs ?? []) : undefined;
    if (before !== undefined) return { source: 'diff', content: { text: before } };
  }
  if (e.git !== undefined) return { source: 'git', content: e.git };
  // A diff that says "new file" is trusted only when nothing says the file was there before (some agents send no
  // oldText for an overwrite; rejecting a "created" file deletes it).
  const diffSaysCreated = e.diffs?.[0] !== undefined && (e.diffs[0].oldText === undefined || e.diffs[0].oldText === null);
  if (e.appeared || diffSaysCreated) return { source: 'created', content: null };
  return undefined;
}

/**
 * A snapshot is read when an edit is announced; an agent that writes at once may be faster, and the snapshot then
 * holds the file as it is now although the turn's diffs say the agent changed it: not a baseline.
 */
function snapshotTooLate(e: BaselineEvidence): boolean {
  if (!e.snapshot || !e.current || !sameTextIgnoringBomAndEol(e.snapshot.text, e.current.text)) return false;
  return (e.diffs ?? []).some((d) => d.oldText != null && !sameTextIgnoringBomAndEol(d.oldText, d.newText));
}

/**
 * The file before the turn's edits, from the file now and each edit's fragment (`oldText` → `newText`), undone
 * latest first. Undefined unless every `newText` occurs exactly once where it is undone (anything else is a guess),
 * or when a diff reports a created file.
 */
export function revertFragments(now: string, diffs: readonly DiffReport[]): string | undefined {
  let text = now;
  for (const d of [...diffs].reverse()) {
    if (d.oldText === undefined || d.oldText === null || !d.newText) return undefined;
    const newText = adaptEol(withoutBom(d.newText), text);
    const at = text.indexOf(newText);
    if (at < 0 || text.indexOf(newText, at + 1) >= 0) return undefined;
    text = text.slice(0, at) + adaptEol(withoutBom(d.oldText), text) + text.slice(at + newText.length);
  }
  return text;
}

/**
 * The `oldText` of a diff when it is the whole file before the change, with the file's own line endings; undefined
 * for a fragment or a new-file diff. Whole-file when it matches a known earlier version (`diffShape`), or when its
 * `newText` is the whole file now — an edit that produced the whole file started from the whole file.
 */
export function wholeFileOldText(diff: DiffReport | undefined, current: Known, earlier: Known | undefined): string | undefined {
  if (!diff || diff.oldText === undefined || diff.oldText === null) return undefined;
  const matchesEarlier = earlier != null && diffShape(diff, earlier.text) === 'whole-file';
  const producedCurrent = current !== null && comparableText(diff.newText) === comparableText(current.text);
  if (matchesEarlier) return earlier.text;
  if (!producedCurrent) return undefined;
  return adaptEol(withoutBom(diff.oldText), current.text);
}
