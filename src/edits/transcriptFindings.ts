import type { HostNote, UnrecordedChange } from '../session/state';
import type { AttachedSessions } from './attachedSessions';
import type { Proposals } from './proposals';
import type { TurnFindings } from './turnOutcomes';

/** What the tracker finds out about a turn's files goes on the session's transcript: its tool cards and its footer. */
export class TranscriptFindings implements TurnFindings {
  constructor(
    private readonly sessions: AttachedSessions,
    private readonly proposals: Proposals,
  ) {}

  noteToolCall(key: string, toolCallId: string, found: HostNote): void {
    // A diff whose write waits as a proposal is tied to that proposal.
    if (found.kind === 'untied-diff' && this.proposals.forPath(found.path)) return;
    this.sessions.session(key)?.state.addToolCallNote(toolCallId, found);
  }

  noteUnrecorded(key: string, turnIndex: number, files: UnrecordedChange[]): void {
    this.sessions.session(key)?.state.noteUnrecorded(turnIndex, files);
  }
}
