import * as fs from 'node:fs/promises';
import type { HostNote, UnrecordedChange } from '../session/state';
import type { BlobStore } from './blobStore';
import type { ContentRef, EditsState } from './editsState';
import { displayPath, type PendingChanges } from './pendingChanges';
import type { Turn } from './turn';
import type { RecordedBefore } from './turnSnapshots';
import * as l10n from '@vscode/l10n';

/** Past this many unrecorded files in one turn, only the turn's footer lists the rest. */
const MAX_UNRECORDED_LISTED = 50;

/** Where the tracker says what it found out about a turn's files: the session's transcript (registerEdits). */
export interface TurnFindings {
  noteToolCall(key: string, toolCallId: string, note: HostNote): void;
  noteUnrecorded(key: string, turnIndex: number, files: UnrecordedChange[]): void;
}

/**
 * What a turn leaves besides text reviews: changes with no text diff (binary, or with no recorded original) in the
 * list, and its findings on the transcript — the footer's unrecorded files, diffs tied to nothing on disk, writes
 * the user refused that the agent made anyway.
 */
export class TurnOutcomes {
  private readonly state: EditsState;
  private readonly pending: PendingChanges;
  private readonly persist: () => void;
  private readonly log: (line: string) => void;
  private readonly findings: TurnFindings;
  private readonly blobs: BlobStore;

  constructor(deps: { state: EditsState; blobs: BlobStore; pending: PendingChanges; persist: () => void; log: (line: string) => void; findings: TurnFindings }) {
    ({ state: this.state, blobs: this.blobs, pending: this.pending, persist: this.persist, log: this.log, findings: this.findings } = deps);
  }

  /** A file with no text to diff (binary, huge, special) changed: its exact bytes before, when the snapshot has them. */
  async opaqueChanged(turn: Turn, path: string, why: string, recorded: RecordedBefore): Promise<void> {
    // The bytes now only when there are bytes before to compare with (a file over the caps is not read again).
    const missing = (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : undefined);
    const now = recorded.kind === 'bytes' ? await fs.readFile(path).catch(missing) : await fs.lstat(path).catch(missing);
    if (recorded.kind === 'bytes') {
      if (Buffer.isBuffer(now) && Buffer.compare(now, recorded.bytes) === 0) return;
      this.addOpaque(turn, path, now === null ? 'deleted' : 'modified', this.blobs.put(recorded.bytes), why);
    } else if (recorded.kind === 'absent') {
      if (now === null) return;
      this.addOpaque(turn, path, 'created', null, why);
    } else {
      this.addOpaque(turn, path, now === null ? 'deleted' : 'modified', undefined, recorded.kind === 'unrecorded' ? recorded.why : l10n.t('original not recorded ({0})', why));
    }
    this.noteIfRefused(turn, path);
  }

  addOpaque(turn: Turn, path: string, kind: 'modified' | 'created' | 'deleted', baseline: ContentRef | undefined, why: string): void {
    turn.opaque.add(path);
    const key = turn.session.key;
    if (baseline !== undefined) {
      turn.changed.set(path, baseline);
      this.state.recordCheckpoint(key, turn.index, path, baseline);
      this.persist();
    } else {
      turn.unrecorded.set(path, why);
      this.log(`Changed during turn ${turn.index}, ${why}: ${path}`);
      // Found after the turn's report (a late event): its footer learns of it now.
      if (turn.reported) this.findings.noteUnrecorded(key, turn.index, [{ path: displayPath(path), why }]);
      // A command that rewrites a whole excluded folder must not flood the list: the turn's footer counts them all.
      if ([...turn.unrecorded.keys()].filter((p) => this.pending.opaque(p)).length >= MAX_UNRECORDED_LISTED) return;
    }
    this.pending.addOpaque({ path, session: key, turn: turn.index, kind, why, ...(baseline !== undefined ? { baseline } : {}) });
  }

  noteIfRefused(turn: Turn, path: string): void {
    if (!turn.refused.has(path)) return;
    for (const id of turn.callsFor(path)) this.findings.noteToolCall(turn.session.key, id, { kind: 'written-after-refusal', path });
  }

  report(turn: Turn): void {
    turn.reported = true;
    const key = turn.session.key;
    if (turn.unrecorded.size > 0) {
      this.findings.noteUnrecorded(key, turn.index, [...turn.unrecorded].map(([path, why]) => ({ path: displayPath(path), why })));
    }
    for (const [path, calls] of turn.diffs) {
      if (turn.changed.has(path) || turn.opaque.has(path) || this.pending.has(path)) continue;
      for (const [toolCallId, diff] of calls) {
        if (diff.oldText !== diff.newText) this.findings.noteToolCall(key, toolCallId, { kind: 'untied-diff', path });
      }
    }
  }
}
