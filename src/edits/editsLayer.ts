import type * as vscode from 'vscode';
import type { Session } from '../session/session';
import type { AgentWrites } from './agentWrites';
import type { AttachedSessions } from './attachedSessions';
import type { ChangeTracker } from './changeTracker';
import type { Checkpoints } from './checkpoints';
import type { EditsStorage } from './editsStorage';
import type { PendingChanges } from './pendingChanges';
import type { ReviewMilestone, ReviewMilestones } from './reviewMilestones';
import type { ReviewRounds } from './reviewRounds';
import { SessionFollower } from './sessionFollower';
import type { AttachedEdits, SessionEdits } from './sessionEdits';

export interface EditsLayerDeps {
  readonly storage: EditsStorage;
  readonly pending: PendingChanges;
  readonly sessions: AttachedSessions;
  readonly tracker: ChangeTracker;
  readonly writes: AgentWrites;
  readonly checkpoints: Checkpoints;
  readonly openChanges: (uri: vscode.Uri) => Promise<boolean>;
  readonly rounds: ReviewRounds;
  readonly milestones: ReviewMilestones;
}

/**
 * The edits layer as the rest of the extension sees it (built by `registerEdits`): the session manager attaches each
 * session once; the panel restores checkpoints; the commands grant folders; deactivation flushes.
 */
export class EditsLayer implements SessionEdits {
  readonly pending: PendingChanges;
  /** What each file read when review comments on it were sent. */
  readonly rounds: ReviewRounds;
  /** A change to review, a hunk decided, a checkpoint restored (the walkthrough's steps). */
  readonly onDidReachMilestone: vscode.Event<ReviewMilestone>;

  constructor(private readonly deps: EditsLayerDeps) {
    this.pending = deps.pending;
    this.rounds = deps.rounds;
    this.onDidReachMilestone = deps.milestones.onDidReach;
  }

  attach(key: string, session: Session, cwd: string): AttachedEdits {
    const { sessions, tracker, writes } = this.deps;
    const files = sessions.open(key, session, cwd, (sandbox, params, signal) => writes.write(key, sandbox, params, signal));
    tracker.openSession(key, files.sandbox);
    return new SessionFollower(key, session, files, tracker, () => sessions.close(key, files));
  }

  /** Whether the session is followed (its agent has started and it is not closed): only then has it file access. */
  follows(key: string): boolean {
    return this.deps.sessions.has(key);
  }

  /** A folder the user let this session's agent reach, on top of the workspace folders. */
  addRoot(key: string, folder: string): void {
    const files = this.deps.sessions.addRoot(key, folder);
    // The tracker watches the new root and snapshots it before the next prompt.
    if (files) this.deps.tracker.openSession(key, files.sandbox);
  }

  /** The files "Restore files to before this message" would touch. */
  checkpointFiles(key: string, turnIndex: number): string[] {
    return this.deps.checkpoints.files(key, turnIndex);
  }

  /** Restores them after a confirmation listing them; false when the user declined or there was nothing to do. */
  restoreCheckpoint(key: string, turnIndex: number): Promise<boolean> {
    return this.deps.checkpoints.restore(key, turnIndex);
  }

  /** Opens the review of a file; false (and nothing shown) when it has no pending changes. */
  openChanges(uri: vscode.Uri): Promise<boolean> {
    return this.deps.openChanges(uri);
  }

  /** Saves baselines and checkpoints now (on deactivate). */
  flush(): Promise<void> {
    return this.deps.storage.save();
  }
}
