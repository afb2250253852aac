import type { Disposable } from '../base/disposables';
import type { Session } from '../session/session';
import type { AgentFiles } from '../workspace/agentFiles';

/** The edits layer following one session: its file access, until disposed with the session's scope. */
export interface AttachedEdits extends Disposable {
  /** `fs/read_text_file` from buffers and `fs/write_text_file` through review, in the session's sandbox. */
  readonly files: AgentFiles;
}

/** What the session manager needs of the edits layer. */
export interface SessionEdits {
  /**
   * Follows `session` from now until the returned handle is disposed (the session closed): its turns and tool calls
   * feed the review and the checkpoints, the roots are snapshotted before each prompt. Called once per session, when
   * its agent first starts; the same file access serves every restart.
   */
  attach(key: string, session: Session, cwd: string): AttachedEdits;
}
