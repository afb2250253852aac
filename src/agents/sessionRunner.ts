import type { ConnectionClosedError, StopCause } from '../acp/errors';
import type { LoadSessionResult } from '../acp/schema/agentMethods';
import type { SessionEdits } from '../edits/sessionEdits';
import type { Crash, StopReason } from '../session/lifecycle';
import type { RestartDecision } from '../session/restartPolicy';
import type { AgentStarter } from './agentStarter';
import { continueSession } from './continueSession';
import type { Managed, ManagedSession, Started } from './managedSession';
import { toStartFailure } from './startFailure';
import { UntrustedWorkspaceError } from './workspaceTrust';
import * as l10n from '@vscode/l10n';

/** A crash of a session's agent and what its restart policy decided. */
export interface CrashEvent {
  readonly managed: ManagedSession;
  readonly crash: Crash;
  readonly decision: RestartDecision;
}

/**
 * Runs the agent of a session the manager holds: connects a started agent to it, restarts it, stops it, and handles
 * its connection closing (a crash goes to the session's restart policy). With the session manager, the only caller
 * of the session lifecycle's transitions.
 */
export class SessionRunner {
  constructor(
    private readonly starter: AgentStarter,
    private readonly edits: SessionEdits | undefined,
    private readonly changed: () => void,
    private readonly crashed: (event: CrashEvent) => void,
  ) {}

  /**
   * Starts the session's agent again and continues the conversation: `session/resume` where the agent has it, else
   * `session/load` (its replay is dropped: the transcript is still here), else — or when the agent refuses both — a
   * new session, said in the transcript. Signs in first when the agent asks.
   */
  async restart(managed: Managed): Promise<void> {
    if (managed.scope.isDisposed || managed.lifecycle.isStarting || managed.lifecycle.state.kind === 'stopping') return;
    const { lifecycle } = managed;
    lifecycle.restarting();
    managed.startFailure = undefined;
    const previous = managed.current;
    if (previous) await this.starter.stop(previous, 'restart');
    let started: Started | undefined;
    try {
      started = await this.starter.start(managed.agent, managed.cwd, managed.log);
      const oldId = managed.session.sessionId;
      // With no transcript here yet (a session opened from the agent's history, perhaps with a failed start said
      // in it), its replay is the transcript.
      const empty = managed.session.state.entries.every((e) => e.kind === 'error');
      const result = await this.starter.withSignIn(managed.agent, started, managed.log, lifecycle, (s) => this.continueOn(managed, s, empty));
      started = result.started;
      if (!stillRestarting(managed)) throw new Error(l10n.t('The conversation was closed or its agent stopped meanwhile'));
      const { sessionId, setup } = result.value;
      managed.session.reattach(started.connection.acp, sessionId, setup);
      this.connect(managed, started);
      lifecycle.ready();
      managed.log.info(l10n.t('Restarted; session {0} {1}.', sessionId, sessionId === oldId ? l10n.t('resumed') : l10n.t('replaced')));
    } catch (error) {
      // An agent that started but could not continue the session is not left running.
      if (started && !managed.serves(started.connection)) await this.starter.stop(started, 'start-failed');
      if (!stillRestarting(managed)) return;
      const message = error instanceof Error ? error.message : String(error);
      const untrusted = error instanceof UntrustedWorkspaceError;
      if (!untrusted) managed.startFailure = toStartFailure(managed.agent, error, managed.key);
      lifecycle.stopped(untrusted ? { kind: 'untrusted', message } : { kind: 'start-failed', message });
      managed.session.state.addError(l10n.t('Restart failed: {0}', message), undefined, false);
      managed.log.error(`Restart failed: ${message}`);
    }
    this.changed();
  }

  /** The session call of a restart on connection `s`, with this session's MCP servers and file access. */
  private async continueOn(managed: Managed, s: Started, empty: boolean): Promise<{ sessionId: string; setup: LoadSessionResult }> {
    managed.followEdits(this.edits);
    // Made once per session, on its first start here (a restored conversation); every restart passes the same one,
    // while the setting is on.
    if (!managed.editorContext) managed.useEditorContext(await this.starter.editorContextFor(() => managed.edits?.files, managed.cwd, managed.log));
    const own = this.starter.editorContextOn ? managed.editorContext : undefined;
    return continueSession(managed, s, empty, this.starter.mcpServers(s, managed.log, own), this.starter.slowStarts);
  }

  /** `started` serves the session from now on. */
  connect(managed: Managed, started: Started): void {
    managed.followEdits(this.edits);
    managed.adopt(started);
    started.router.attach(managed.session, managed.edits?.files);
    void started.connection.closed.then((error) => this.connectionClosed(managed, started, error));
  }

  /** Stops the session's agent for `reason`; the lifecycle says so before and after. */
  async stop(managed: Managed, reason: StopReason): Promise<void> {
    const { lifecycle } = managed;
    // A session already down keeps why (restored, crashed) unless the user closes it; one stopping is on its way.
    if (lifecycle.isStopping || (lifecycle.isDown && reason.kind !== 'user')) return;
    // A start in progress sees this and stops the agent it was starting (see `restart`).
    lifecycle.stopping(reason);
    const current = managed.current;
    if (current && !current.connection.isClosed) await this.starter.stop(current, causeOf(reason));
    if (lifecycle.isStopping) lifecycle.stopped(reason);
  }

  /**
   * The connection serving `managed` closed: prompts still waiting are over. One Howdah stopped was handled where it
   * stopped it; one that ended by itself crashed, and the session's restart policy decides what comes next.
   */
  private connectionClosed(managed: Managed, started: Started, error: ConnectionClosedError): void {
    if (!managed.serves(started.connection) || managed.scope.isDisposed) return;
    managed.session.dispose();
    started.scope.dispose();
    if (error.stopCause || !managed.lifecycle.isRunning) return;
    const crash: Crash = { message: error.message, exitCode: error.exitCode, signal: error.signal, stderrTail: error.stderrTail };
    managed.lifecycle.crashed(crash);
    managed.log.error(error.message);
    // A running turn records the failure itself when its prompt rejects; an idle session needs the entry here.
    if (managed.session.state.turn === 'idle') managed.session.state.addError(error.message.split('\n')[0], error.stderrTail.slice(-20).join('\n') || undefined, false);
    const decision = managed.restarts.afterCrash(crash, Date.now());
    this.crashed({ managed, crash, decision });
    if (decision.action === 'restart') {
      managed.log.info(l10n.t('Restarting {0} ({1}).', managed.agentName, decision.note));
      void this.restart(managed);
    }
  }
}

/** Whether a restart of `managed` is still wanted: nobody closed the session or stopped its agent meanwhile. */
function stillRestarting(managed: Managed): boolean {
  const { kind } = managed.lifecycle.state;
  return !managed.scope.isDisposed && (kind === 'restarting' || kind === 'signing-in');
}

/** The cause a connection reports when it is stopped for `reason`. */
function causeOf(reason: StopReason): StopCause {
  switch (reason.kind) {
    case 'user':
    case 'window-closing':
    case 'untrusted':
      return reason.kind;
    default:
      return 'start-failed';
  }
}
