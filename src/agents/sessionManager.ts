import * as vscode from 'vscode';
import { ConnectionClosedError } from '../acp/errors';
import type { ProtocolRecorder } from '../acp/protocolRecorder';
import type { InitializeResult, LoadSessionResult, PromptBlock, SessionInfo } from '../acp/schema/agentMethods';
import type { PersistedSession } from '../session/persistence';
import { Session } from '../session/session';
import { AgentLog } from './agentLog';
import { AgentNotFoundError, AgentRegistry, offerInstall, type KnownAgent } from './agentRegistry';
import { AgentStarter } from './agentStarter';
import { continueSession } from './continueSession';
import { Managed, newKey, type ManagedSession, type Started } from './managedSession';
import { applySessionDefaults, rememberSessionDefault } from './sessionDefaultsSetting';
import type { SessionStore } from './sessionStore';
import { SignInPrompts, type SignInRequest } from './signIn';
import { during, StartFailures, toStartFailure, type StartFailure } from './startFailure';
import { UNTRUSTED_MESSAGE, WorkspaceTrust } from './workspaceTrust';
import type { TerminalsService } from '../terminals/agentTerminals';
import type { EditReview } from '../edits/registerEdits';

export type { ManagedSession, ManagedStatus } from './managedSession';

/** Why a conversation restored after a window reload has no agent running: not an error. */
export const RESTORED_REASON = 'The window was reloaded; the agent starts again with your next message.';

/**
 * Starts agents and their sessions, signs in when an agent asks, restarts crashed agents and keeps the list the panel
 * shows. One agent process per session: a crash or a hung agent takes one conversation down, not all of them, and
 * each session keeps the environment and capabilities it was started with.
 */
export class SessionManager implements vscode.Disposable {
  readonly registry = new AgentRegistry();
  private readonly sessions = new Map<string, Managed>();
  private readonly logs = new Map<string, AgentLog>();
  private activeKey: string | undefined;
  private readonly failures = new StartFailures(() => this.changed.fire());
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly signIns = new SignInPrompts(() => this.changed.fire());
  private readonly starter: AgentStarter;
  /** Agents start only in a trusted workspace. */
  readonly trust = new WorkspaceTrust();
  private readonly trustChanged = this.trust.onDidChange(() => this.changed.fire());

  constructor(
    version: string,
    private readonly store?: SessionStore,
    terminals?: TerminalsService,
    private readonly edits?: EditReview,
  ) {
    this.starter = new AgentStarter(this.registry, this.signIns, version, this.trust, terminals);
  }

  get active(): ManagedSession | undefined {
    return this.activeKey ? this.sessions.get(this.activeKey) : undefined;
  }

  list(): ManagedSession[] {
    return [...this.sessions.values()];
  }

  get(key: string): ManagedSession | undefined {
    return this.sessions.get(key);
  }

  setActive(key: string): void {
    if (!this.sessions.has(key) || this.activeKey === key) return;
    this.activeKey = key;
    this.changed.fire();
  }

  /** While an agent waits for the user to sign in: what to show, and `chooseSignIn` to answer. */
  get signInRequest(): SignInRequest | undefined {
    return this.signIns.request;
  }

  chooseSignIn(choiceId: string | undefined, key?: string): void {
    this.signIns.answer(choiceId, key);
  }

  /** Starts the agent and a session with it. Throws (after telling the user, also in `startFailure`) when it cannot. */
  async newSession(agentId?: string): Promise<ManagedSession> {
    this.failures.clearNewSession();
    if (!this.trust.isTrusted) throw this.fail(UNTRUSTED_MESSAGE);
    const agent = this.registry.pick(agentId);
    if (!agent) {
      throw this.fail(agentId ? `No agent "${agentId}" is known: add it to the howdah.agents setting.` : 'No agent is configured: pick one in the Howdah panel or add one to the howdah.agents setting.');
    }
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    if (folders.length === 0) throw this.fail('Open a folder first: an agent works inside a workspace folder.');
    const cwd = folders[0];
    const log = this.logFor(agent);
    let started: Started | undefined;
    try {
      started = await this.starter.start(agent, cwd, log);
      const result = await this.starter.withSignIn(agent, started, log, (s) =>
        during('session/new', s.connection, () => s.connection.acp.call('newSession', { cwd, mcpServers: this.starter.mcpServers(s.init, log) })),
      );
      started = result.started;
      const key = newKey();
      const session = new Session(started.connection.acp, result.value.sessionId, result.value, {
        onUserChoice: (k, v) => void rememberSessionDefault(agent.id, k, v),
      });
      const managed = new Managed(key, agent, started.connection, started.router, session, log, cwd);
      this.sessions.set(key, managed);
      started.router.files = this.edits?.attach(key, session, cwd);
      started.router.attach(session);
      this.store?.track(managed);
      this.watchExit(managed);
      this.activeKey = key;
      this.changed.fire();
      await applySessionDefaults(managed.agentId, managed.session, log);
      return managed;
    } catch (error) {
      await started?.connection.stop();
      // Read after the stop: the agent's last stderr lines are in by then.
      this.failures.newSessionFailed(toStartFailure(agent, error));
      if (error instanceof AgentNotFoundError) {
        log.error(error.message);
        void offerInstall(error.agent);
        throw error;
      }
      throw this.fail(describeStartFailure(agent, error), log);
    }
  }

  async prompt(key: string, blocks: PromptBlock[]): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) throw new Error(`No session ${key}`);
    // A conversation whose agent stopped (or a window reload) continues by starting the agent again first.
    if (managed.status === 'exited') await this.restart(key);
    if (managed.status !== 'ready') throw new Error(`${managed.agentName} is not running${managed.exitReason ? `: ${managed.exitReason}` : ''}`);
    // Errors are recorded in the transcript by the session; the promise is for callers that want to know.
    await managed.session.prompt(blocks);
  }

  /**
   * Starts the session's agent again and continues the conversation: `session/resume` where the agent has it, else
   * `session/load` (its replay is dropped: the transcript is still here), else — or when the agent refuses both — a
   * new session, said in the transcript. Signs in first when the agent asks.
   */
  async restart(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed || managed.status === 'restarting') return;
    managed.status = 'restarting';
    managed.startFailure = undefined;
    this.changed.fire();
    await managed.connection?.stop();
    let started: Started | undefined;
    try {
      started = await this.starter.start(managed.agent, managed.cwd, managed.log);
      const oldId = managed.session.sessionId;
      // With no transcript here yet (a session opened from the agent's history, perhaps with a failed start said
      // in it), its replay is the transcript.
      const empty = managed.session.state.entries.every((e) => e.kind === 'error');
      const result = await this.starter.withSignIn(managed.agent, started, managed.log, (s) => this.continueOn(managed, s, empty));
      started = result.started;
      const { sessionId, setup } = result.value;
      managed.session.reattach(started.connection.acp, sessionId, setup);
      managed.connection = started.connection;
      managed.router = started.router;
      started.router.attach(managed.session);
      managed.status = 'ready';
      managed.exitReason = undefined;
      managed.log.info(`Restarted; session ${sessionId} ${sessionId === oldId ? 'resumed' : 'replaced'}.`);
      this.watchExit(managed);
    } catch (error) {
      // An agent that started but could not continue the session is not left running.
      if (started && managed.connection !== started.connection) await started.connection.stop();
      managed.status = 'exited';
      if (this.trust.isTrusted) managed.startFailure = toStartFailure(managed.agent, error, key);
      managed.exitReason = error instanceof Error ? error.message : String(error);
      managed.session.state.addError(`Restart failed: ${managed.exitReason}`, undefined, false);
      managed.log.error(`Restart failed: ${managed.exitReason}`);
    }
    this.changed.fire();
  }

  /** The session call of a restart on connection `s`, with this session's MCP servers and file access. */
  private continueOn(managed: Managed, s: Started, empty: boolean): Promise<{ sessionId: string; setup: LoadSessionResult }> {
    s.router.files = this.edits?.attach(managed.key, managed.session, managed.cwd);
    return continueSession(managed, s, empty, this.starter.mcpServers(s.init, managed.log));
  }

  /**
   * Opens a past conversation: one already open is shown; a saved one comes back with its transcript; one only the
   * agent knows (its `session/list`) is loaded, its replay filling the transcript. The agent then resumes it.
   */
  async openPast(entry: { agentId: string; sessionId: string; cwd: string; title?: string; saved?: PersistedSession }): Promise<ManagedSession | undefined> {
    const open = [...this.sessions.values()].find((m) => m.agentId === entry.agentId && m.session.sessionId === entry.sessionId);
    if (open) {
      this.setActive(open.key);
      return open;
    }
    const agent = this.registry.list().find((a) => a.id === entry.agentId);
    if (!agent) throw this.fail(`The agent "${entry.agentId}" of that conversation is no longer configured.`);
    this.failures.clearNewSession();
    const key = entry.saved?.key ?? newKey();
    if (entry.saved) {
      this.restoreSaved([entry.saved]);
    } else {
      const session = new Session(undefined, entry.sessionId, {}, { onUserChoice: (k, v) => void rememberSessionDefault(agent.id, k, v) });
      if (entry.title) session.state.info = { title: entry.title };
      const managed = new Managed(key, agent, undefined, undefined, session, this.logFor(agent), entry.cwd);
      managed.status = 'exited';
      this.sessions.set(key, managed);
      this.store?.track(managed);
    }
    this.activeKey = key;
    await this.restart(key);
    return this.sessions.get(key);
  }

  /** The agent's own list of sessions for this workspace, from the active session's agent when it can list. */
  async agentHistory(): Promise<{ agentId: string; sessions: SessionInfo[] } | undefined> {
    const active = [...this.sessions.values()].find((m) => m.key === this.activeKey);
    const acp = active?.status === 'ready' ? active.connection?.acp : undefined;
    if (!active || !acp?.supports('listSessions')) return undefined;
    const sessions: SessionInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await acp.call('listSessions', { cwd: active.cwd, ...(cursor ? { cursor } : {}) });
      sessions.push(...page.sessions);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && sessions.length < 500);
    return { agentId: active.agentId, sessions };
  }

  /**
   * Why an agent could not start: the last new session's failure, else the active conversation's failed restart.
   * Held until the user acts: Retry, another session, or dismissing it.
   */
  get startFailure(): StartFailure | undefined {
    return this.failures.current(this.activeKey ? this.sessions.get(this.activeKey) : undefined);
  }

  /**
   * Starts again the way that failed: a new session with the same agent, or the same conversation's restart (with
   * the agent's settings as they are now: the user may have just fixed them). Ignored unless `id` is shown.
   */
  async retryStart(id: string): Promise<void> {
    const failure = this.startFailure;
    if (failure?.id !== id) return;
    const managed = failure.sessionKey ? this.sessions.get(failure.sessionKey) : undefined;
    if (!managed) {
      await this.newSession(failure.agentId).catch(() => undefined);
      return;
    }
    managed.agent = this.registry.list().find((a) => a.id === managed.agentId) ?? managed.agent;
    await this.restart(managed.key);
  }

  dismissStartFailure(id: string): void {
    this.failures.dismiss(id, this.activeKey ? this.sessions.get(this.activeKey) : undefined);
  }

  /** The agent's output channel, "Howdah: <agent>". */
  showAgentLog(agentId: string): void {
    this.logs.get(agentId)?.show();
  }

  agentLogLines(key: string): string[] {
    return this.sessions.get(key)?.log.lines() ?? [];
  }

  /** The traffic recorder and initialize result of the session's current connection. */
  protocolOf(key: string): { recorder?: ProtocolRecorder; init?: InitializeResult } {
    const managed = this.sessions.get(key);
    return { recorder: managed?.router?.recorder, init: managed?.connection?.initializeResult };
  }

  showLog(key: string): void {
    this.sessions.get(key)?.log.show();
  }

  agentPid(key: string): number | undefined {
    const managed = this.sessions.get(key);
    return managed && managed.status === 'ready' ? managed.connection?.process.pid : undefined;
  }

  /** Stops the agent and forgets the session. */
  async close(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) return;
    this.sessions.delete(key);
    this.store?.untrack(key);
    this.edits?.closeSession(key);
    const connection = managed.connection;
    if (connection && managed.status === 'ready' && connection.acp.supports('closeSession')) {
      await connection.acp.call('closeSession', { sessionId: managed.session.sessionId }).catch(() => undefined);
    }
    await connection?.stop();
    if (this.activeKey === key) this.activeKey = [...this.sessions.keys()].pop();
    this.changed.fire();
  }

  /** Closes the session and deletes it: from the agent's history where it supports that, and from ours. */
  async delete(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) return;
    const acp = managed.status === 'ready' ? managed.connection?.acp : undefined;
    if (acp?.supports('deleteSession')) await acp.call('deleteSession', { sessionId: managed.session.sessionId }).catch(() => undefined);
    await this.close(key);
    await this.store?.remove(key);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((m) => m.connection?.stop()));
  }

  /** Saves every conversation, then stops every agent. */
  async shutdown(): Promise<void> {
    await this.store?.flush();
    await this.stopAll();
  }

  dispose(): void {
    void this.stopAll();
    this.signIns.answer(undefined);
    this.trustChanged.dispose();
    this.trust.dispose();
    for (const log of this.logs.values()) log.dispose();
    this.changed.dispose();
  }

  /**
   * Brings back conversations saved before a window reload, `active` (the one that was in front) shown: the
   * transcript at once; the agent starts again (resuming the session) when the user sends the next message or clicks
   * Restart.
   */
  restoreSaved(saved: readonly PersistedSession[], active?: string): void {
    for (const record of saved) {
      if (this.sessions.has(record.key)) continue;
      const agent = this.registry.list().find((a) => a.id === record.agentId);
      if (!agent) continue;
      const session = new Session(undefined, record.sessionId, {}, { onUserChoice: (k, v) => void rememberSessionDefault(agent.id, k, v) });
      session.state.restore({ entries: record.entries, toolCalls: record.toolCalls, plan: record.plan as never[], title: record.title });
      const managed = new Managed(record.key, agent, undefined, undefined, session, this.logFor(agent), record.cwd);
      managed.status = 'exited';
      managed.exitReason = RESTORED_REASON;
      this.sessions.set(record.key, managed);
      this.store?.track(managed, { saved: true });
    }
    // A session the user started while these were read stays in front.
    if (this.activeKey === undefined) this.activeKey = active && this.sessions.has(active) ? active : [...this.sessions.keys()].pop();
    this.changed.fire();
  }

  private watchExit(managed: Managed): void {
    const connection = managed.connection;
    if (!connection) return;
    void connection.closed.then((error) => {
      if (managed.connection !== connection || managed.status === 'restarting') return;
      const expected = error.message.endsWith('was stopped');
      managed.session.dispose();
      managed.status = 'exited';
      if (expected || !this.sessions.has(managed.key)) {
        this.changed.fire();
        return;
      }
      managed.exitReason = error.message;
      managed.log.error(error.message);
      // A running turn records the failure itself when its prompt rejects; an idle session needs the entry here.
      if (managed.session.state.turn === 'idle') {
        managed.session.state.addError(error.message.split('\n')[0], error.stderrTail.slice(-20).join('\n') || undefined, false);
      }
      this.changed.fire();
      if (managed.restarts.tryRestart(Date.now())) {
        managed.log.info(`Restarting ${managed.agentName} (${managed.restarts.recent(Date.now())} of 3 automatic restarts in 5 minutes).`);
        void this.restart(managed.key);
      } else {
        void vscode.window.showErrorMessage(`Howdah: ${managed.agentName} stopped: ${error.message.split('\n')[0]}`, 'Restart', 'Show Log').then((choice) => {
          if (choice === 'Restart') void this.restart(managed.key);
          if (choice === 'Show Log') managed.log.show();
        });
      }
    });
  }

  private logFor(agent: KnownAgent): AgentLog {
    let log = this.logs.get(agent.id);
    if (!log) this.logs.set(agent.id, (log = new AgentLog(agent.name)));
    return log;
  }

  private fail(message: string, log?: AgentLog): Error {
    log?.error(message);
    const actions = log ? ['Show Log'] : [];
    void vscode.window.showErrorMessage(`Howdah: ${message}`, ...actions).then((choice) => {
      if (choice === 'Show Log') log?.show();
    });
    return new Error(message);
  }
}

function describeStartFailure(agent: KnownAgent, error: unknown): string {
  if (error instanceof ConnectionClosedError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `${agent.name} could not start a session: ${message}`;
}
