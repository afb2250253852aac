import { DisposableStore } from '../base/disposables';
import type { Session } from '../session/session';
import type { AgentFiles } from '../workspace/agentFiles';
import type { ChangeTracker } from './changeTracker';
import type { AttachedEdits } from './sessionEdits';

type SessionTracker = Pick<ChangeTracker, 'onToolCall' | 'turnStarted' | 'turnEnded' | 'prepareTurn' | 'closeSession'>;

/**
 * The edits layer following one session, from its agent's first start until it closes: its turns and tool calls (from
 * its state's events, whoever sends the prompt) feed the tracker, and its roots are snapshotted before each prompt.
 * Disposing it removes all of that and forgets the session.
 */
export class SessionFollower implements AttachedEdits {
  private readonly scope: DisposableStore;

  constructor(
    key: string,
    session: Session,
    readonly files: AgentFiles,
    tracker: SessionTracker,
    /** Forgets the session's file access and transcript; false when they were another attachment's by now. */
    forget: () => boolean,
  ) {
    this.scope = new DisposableStore(`edits ${key}`);
    // Added first, so it runs last: the subscriptions are gone before the tracker forgets the session.
    this.scope.onDispose(() => {
      if (forget()) tracker.closeSession(key);
    });
    // The snapshot of the roots is taken after the user message shows and before the prompt goes out.
    this.scope.add(session.prepareTurnsWith(() => tracker.prepareTurn(key)));
    const state = session.state;
    this.scope.add(
      state.onChange((change) => {
        // From its announcement on: the file an edit names is read before the agent (maybe at once) writes it.
        const call = state.toolCallOf(change);
        if (call) tracker.onToolCall(key, call);
        else if (change.type === 'turn-started') tracker.turnStarted(key, change.index);
        else if (change.type === 'turn-ended') tracker.turnEnded(key, change.index);
      }),
    );
  }

  dispose(): void {
    this.scope.dispose();
  }
}
