import * as vscode from 'vscode';
import type { AcpConnection } from '../acp/connection';
import type { LoadSessionResult, PromptBlock, StopReason as TurnStopReason } from '../acp/schema/agentMethods';
import type { SessionEdits } from '../edits/sessionEdits';
import { SessionLifecycle, type StopReason } from '../session/lifecycle';
import type { PersistedSession } from '../session/persistence';
import { LimitedRestarts, type RestartPolicy } from '../session/restartPolicy';
import { withDirectories } from '../session/directories';
import { Session } from '../session/session';
import type { TerminalsService } from '../terminals/agentTerminals';
import { AgentHistories } from './agentHistories';
import { AgentLog } from './agentLog';
import { AgentNotFoundError, AgentRegistry, type AgentSources, type KnownAgent } from './agentRegistry';
import { AgentStarter } from './agentStarter';
import type { EditorContextService } from '../editorContext/editorContextService';
import { Managed, newKey, type ManagedSession, type Started } from './managedSession';
import { applySessionDefaults, rememberSessionDefault } from './sessionDefaultsSetting';
import type { SessionStore } from './sessionStore';
import { SignInPrompts, type SignInOutcome, type SignInRequest } from './signIn';
import { canSignOut, signOut } from './signOut';
import { AgentQuestions } from './agentQuestions';
import { SlowStarts } from './slowStarts';
import { StartQuestions } from './startQuestions';
import { SessionProbes } from './sessionProbes';
import { SessionRunner, type CrashEvent } from './sessionRunner';
import { describeStartFailure, during, StartFailures, toStartFailure, type StartFailure } from './startFailure';
import { UNTRUSTED_MESSAGE, WorkspaceTrust } from './workspaceTrust';

export type { ManagedSession, ManagedStatus } from './managedSession';
export type { CrashEvent } from './sessionRunner';
export { RESTORED_REASON } from './managedSession';

export interface SessionManagerOptions {
  store?: SessionStore;
  terminals?: TerminalsService;
  edits?: SessionEdits;
  /** Gives each session its editor-context MCP server (issue 16). */
  editorContext?: EditorContextService;
  /** One policy per session: what happens after its agent crashes. */
  restartPolicy?: () => RestartPolicy;
  /** The ACP registry and Howdah's installs (without them: settings and the catalog only). */
  agents?: AgentSources;
}

/**
 * Starts agents and their sessions, signs in when an agent asks, restarts crashed agents and keeps the list the panel
 * shows. One agent process per session: a crash or a hung agent takes one conversation down, not all of them, and
 * each session keeps the environment and capabilities it was started with. Each session's life is its
 * `SessionLifecycle` (src/session/lifecycle.ts); the transitions are called here and nowhere else.
 */
export class SessionManager implements vscode.Disposable {
  readonly registry: AgentRegistry;
  private readonly sessions = new Map<string, Managed>();
  private readonly logs = new Map<string, AgentLog>();
  /** What runs for each session: its logs, its connection, its process. */
  readonly probes = new SessionProbes(this.sessions, this.logs);
  private activeKey: string | undefined;
  private readonly failures = new StartFailures(() => this.changed.fire());
  private readonly changed = new vscode.EventEmitter<void>();
  /** The session list, the active session, a session's lifecycle, a sign-in or a start failure changed. */
  readonly onDidChange = this.changed.event;
  private readonly crashes = new vscode.EventEmitter<CrashEvent>();
  /** A session's agent ended by itself; the decision says whether it is being restarted. */
  readonly onDidCrash = this.crashes.event;
  private readonly deleted = new vscode.EventEmitter<string>();
  /** A conversation was deleted by the user: gone from the list and from storage. */
  readonly onDidDelete = this.deleted.event;
  private readonly signIns = new SignInPrompts(() => this.changed.fire());
  /** Start calls that have not answered for a while, which the panel's start area offers to cancel. */
  readonly slowStarts = new SlowStarts(() => this.changed.fire());
  /** Questions agents ask while they start (request-scope elicitation), shown in the panel's start area. */
  readonly startQuestions = new StartQuestions(() => this.changed.fire());
  /** Every question agents ask that still waits, in a session or the start area: the page's answers go here. */
  readonly questions = new AgentQuestions(() => this.sessions.values(), this.startQuestions);
  private readonly starter: AgentStarter;
  private readonly runner: SessionRunner;
  /** Every installed agent's own session list, asked once per window (Open Past Session). */
  readonly histories: AgentHistories;
  /** Agents start only in a trusted workspace. */
  readonly trust = new WorkspaceTrust();
  private readonly trustChanged = this.trust.onDidChange(() => this.changed.fire());
  private readonly store: SessionStore | undefined;
  private readonly restartPolicy: () => RestartPolicy;

  constructor(version: string, options: SessionManagerOptions = {}) {
    this.store = options.store;
    this.registry = new AgentRegistry(options.agents);
    this.restartPolicy = options.restartPolicy ?? (() => new LimitedRestarts());
    this.starter = new AgentStarter(this.registry, this.signIns, version, this.trust, options.terminals, this.startQuestions, this.slowStarts, options.editorContext);
    this.histories = new AgentHistories(this.registry, this.starter, (agent) => this.logFor(agent), (agentId) => this.probes.connectionOfAgent(agentId));
    this.runner = new SessionRunner(this.starter, options.edits, () => this.changed.fire(), (event) => this.crashes.fire(event));
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

  /**
   * Signs out of the agent of session `key` (default: the active one), then asks how to sign in again (see
   * signOut.ts). Throws (after telling the user) when its agent cannot sign out.
   */
  async signOut(key = this.activeKey): Promise<SignInOutcome> {
    const managed = key ? this.sessions.get(key) : undefined;
    if (!managed) throw this.fail(vscode.l10n.t('There is no session to sign out of.'));
    try {
      return await signOut(managed, this.signIns, () => this.restart(managed.key));
    } catch (error) {
      throw this.fail(error instanceof Error ? error.message : String(error), managed.log);
    }
  }

  /** Whether the active session's agent can sign out now (the Sign Out command's enablement). */
  get canSignOut(): boolean {
    return canSignOut(this.activeKey ? this.sessions.get(this.activeKey) : undefined);
  }

  /** Starts the agent and a session with it. Throws (after telling the user, also in `startFailure`) when it cannot. */
  async newSession(agentId?: string): Promise<ManagedSession> {
    this.failures.clearNewSession();
    if (!this.trust.isTrusted) throw this.fail(UNTRUSTED_MESSAGE);
    const agent = this.registry.pick(agentId);
    if (!agent) {
      throw this.fail(agentId ? vscode.l10n.t('No agent "{0}" is known: add it to the howdah.agents setting.', agentId) : vscode.l10n.t('No agent is configured: pick one in the Howdah panel or add one to the howdah.agents setting.'));
    }
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    if (folders.length === 0) throw this.fail(vscode.l10n.t('Open a folder first: an agent works inside a workspace folder.'));
    const cwd = folders[0];
    const log = this.logFor(agent);
    // The session's life begins here, before it has an id: starting, perhaps signing in.
    const lifecycle = new SessionLifecycle();
    let started: Started | undefined;
    // The session's editor-context server goes on session/new, before the session exists here: its file access is
    // the session's once it has one, and its token is the session's (in its scope) from then on.
    let owner: Managed | undefined;
    const editorContext = await this.starter.editorContextFor(() => owner?.edits?.files, cwd, log);
    try {
      started = await this.starter.start(agent, cwd, log);
      const result = await this.starter.withSignIn(agent, started, log, lifecycle, (s) =>
        during('session/new', s.connection, () =>
          this.slowStarts.run(agent.name, 'session/new', (signal) => s.connection.acp.call('newSession', withDirectories({ cwd, mcpServers: this.starter.mcpServers(s, log, editorContext?.server) }, s.connection.acp.agent, s.router.roots), signal)),
        ),
      );
      started = result.started;
      const session = this.newDomainSession(agent, result.value.sessionId, result.value, started.connection.acp);
      const managed = this.add(new Managed(newKey(), agent, session, log, cwd, lifecycle, this.restartPolicy()));
      owner = managed;
      managed.useEditorContext(editorContext);
      this.runner.connect(managed, started);
      lifecycle.ready();
      this.activeKey = managed.key;
      this.changed.fire();
      await applySessionDefaults(managed.agentId, managed.session, log);
      return managed;
    } catch (error) {
      editorContext?.registration.dispose();
      if (started) await this.starter.stop(started, 'start-failed');
      lifecycle.stopped({ kind: 'start-failed', message: error instanceof Error ? error.message : String(error) });
      lifecycle.dispose();
      // Read after the stop: the agent's last stderr lines are in by then.
      this.failures.newSessionFailed(toStartFailure(agent, error));
      if (error instanceof AgentNotFoundError) {
        log.error(error.message);
        void this.registry.offerInstall(error.agent);
        throw error;
      }
      throw this.fail(describeStartFailure(agent, error), log);
    }
  }

  /** Sends a prompt; a conversation whose agent is down (crashed, stopped, a window reload) starts it again first. */
  async prompt(key: string, blocks: PromptBlock[]): Promise<TurnStopReason> {
    const managed = this.sessions.get(key);
    if (!managed) throw new Error(`No session ${key}`);
    if (managed.lifecycle.isDown) await this.restart(key);
    if (!managed.lifecycle.isRunning) throw new Error(managed.exitReason ? vscode.l10n.t('{0} is not running: {1}', managed.agentName, managed.exitReason) : vscode.l10n.t('{0} is not running', managed.agentName));
    // Errors are recorded in the transcript by the session; the promise is for callers that want to know.
    return managed.session.prompt(blocks);
  }

  /** Starts the session's agent again and continues the conversation (see `SessionRunner.restart`). */
  async restart(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (managed) await this.runner.restart(managed);
  }

  /** Stops the running turn (the Stop button). */
  async cancel(key: string): Promise<void> {
    await this.sessions.get(key)?.session.cancel();
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
    if (!agent) throw this.fail(vscode.l10n.t('The agent "{0}" of that conversation is no longer configured.', entry.agentId));
    this.failures.clearNewSession();
    const key = entry.saved?.key ?? newKey();
    if (entry.saved) {
      this.restoreSaved([entry.saved]);
    } else {
      const session = this.newDomainSession(agent, entry.sessionId, {});
      if (entry.title) session.state.info = { title: entry.title };
      this.add(this.down(key, agent, session, entry.cwd, { kind: 'not-started' }));
    }
    this.activeKey = key;
    await this.restart(key);
    return this.sessions.get(key);
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

  /** Stops the agent and forgets the session: everything created for it goes with its scope. */
  async close(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) return;
    this.sessions.delete(key);
    if (this.activeKey === key) this.activeKey = [...this.sessions.keys()].pop();
    const acp = managed.lifecycle.isRunning ? managed.connection?.acp : undefined;
    if (acp?.supports('closeSession')) await acp.call('closeSession', { sessionId: managed.session.sessionId }).catch(() => undefined);
    await this.runner.stop(managed, { kind: 'user' });
    managed.scope.dispose();
    this.changed.fire();
  }

  /** Closes the session and deletes it: from the agent's history where it supports that, and from ours. */
  async delete(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) return;
    const acp = managed.lifecycle.isRunning ? managed.connection?.acp : undefined;
    if (acp?.supports('deleteSession')) await acp.call('deleteSession', { sessionId: managed.session.sessionId }).catch(() => undefined);
    await this.close(key);
    await this.store?.remove(key);
    this.deleted.fire(key);
  }

  /**
   * Shows conversation `next` where `current` was: the same place in the list, in front; `current` is closed (its
   * agent stopped, its transcript kept). How a branch of a message replaces another.
   */
  async putInPlaceOf(current: string, next: string): Promise<void> {
    const moving = this.sessions.get(next);
    if (current === next || !moving) return;
    const order = [...this.sessions.entries()].filter(([k]) => k !== next);
    const at = order.findIndex(([k]) => k === current);
    order.splice(at < 0 ? order.length : at, 0, [next, moving]);
    this.sessions.clear();
    for (const [k, m] of order) this.sessions.set(k, m);
    this.activeKey = next;
    await this.close(current);
    this.changed.fire();
  }

  /** Stops every agent; the conversations stay, to continue with the next message. */
  async stopAll(reason: StopReason = { kind: 'window-closing' }): Promise<void> {
    await Promise.all([...this.sessions.values()].map((m) => this.runner.stop(m, reason)));
  }

  /** Saves every conversation, then stops every agent. */
  async shutdown(): Promise<void> {
    await this.store?.flush();
    await this.stopAll();
  }

  /**
   * The extension is going away (VS Code calls this right after `deactivate`, without waiting for it). Nobody listens
   * any more before anything stops: a change fired now would record the open conversations while they are being
   * let go of, and the window would come back without them. Each session's scope goes once its agent has stopped.
   */
  dispose(): void {
    this.changed.dispose();
    this.crashes.dispose();
    this.deleted.dispose();
    this.registry.signIns.dispose();
    for (const managed of this.sessions.values()) {
      void this.runner.stop(managed, { kind: 'window-closing' }).finally(() => managed.scope.dispose());
    }
    this.signIns.answer(undefined);
    this.trustChanged.dispose();
    this.trust.dispose();
    for (const log of this.logs.values()) log.dispose();
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
      const session = this.newDomainSession(agent, record.sessionId, {});
      session.state.restore({ entries: record.entries, toolCalls: record.toolCalls, plan: record.plan as never[], title: record.title, queue: record.queue, carryOver: record.carryOver });
      this.add(this.down(record.key, agent, session, record.cwd, { kind: 'restored' }), { saved: true });
    }
    // A session the user started while these were read stays in front.
    if (this.activeKey === undefined) this.activeKey = active && this.sessions.has(active) ? active : [...this.sessions.keys()].pop();
    this.changed.fire();
  }

  /** The domain session; `acp` undefined until its agent starts (a restored conversation). */
  private newDomainSession(agent: KnownAgent, sessionId: string, setup: LoadSessionResult, acp?: AcpConnection): Session {
    return new Session(acp, sessionId, setup, { onUserChoice: (k, v) => void rememberSessionDefault(agent.id, k, v) });
  }

  /** A session with no agent running yet. */
  private down(key: string, agent: KnownAgent, session: Session, cwd: string, reason: StopReason): Managed {
    return new Managed(key, agent, session, this.logFor(agent), cwd, new SessionLifecycle({ kind: 'stopped', reason }), this.restartPolicy());
  }

  /** Takes `managed` into the list; what follows it (the panel's refresh, its turns, the store) lives in its scope. */
  private add(managed: Managed, options: { saved?: boolean } = {}): Managed {
    this.sessions.set(managed.key, managed);
    const { lifecycle, session, scope } = managed;
    scope.add(lifecycle.onDidChange(() => this.changed.fire()));
    scope.add(
      session.state.onChange((change) => {
        if (change.type === 'turn-started' && lifecycle.state.kind === 'ready') lifecycle.prompting(change.index);
        else if (change.type === 'turn-ended') lifecycle.promptEnded();
      }),
    );
    if (this.store) scope.add(this.store.track(managed, options));
    return managed;
  }

  private logFor(agent: KnownAgent): AgentLog {
    let log = this.logs.get(agent.id);
    if (!log) this.logs.set(agent.id, (log = new AgentLog(agent.name)));
    return log;
  }

  private fail(message: string, log?: AgentLog): Error {
    log?.error(message);
    const actions = log ? [vscode.l10n.t('Show Log')] : [];
    void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: {0}', message), ...actions).then((choice) => {
      if (choice === vscode.l10n.t('Show Log')) log?.show();
    });
    return new Error(message);
  }
}
