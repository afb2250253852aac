import type { AgentConnection } from '../acp/agentConnection';
import type { LaunchSpec } from '../acp/agentProcess';
import type { InitializeResult, McpServer } from '../acp/schema/agentMethods';
import { DisposableStore } from '../base/disposables';
import type { AttachedEdits, SessionEdits } from '../edits/sessionEdits';
import type { SessionEditorContext } from '../editorContext/editorContextService';
import { SessionLifecycle, type LifecycleState } from '../session/lifecycle';
import type { RestartPolicy } from '../session/restartPolicy';
import type { Session } from '../session/session';
import type { AgentLog } from './agentLog';
import type { KnownAgent } from './agentRegistry';
import type { SessionRouter } from './sessionRouter';
import { sessionAllowances } from './sessionAllowances';
import type { AllowancesView } from '../shared/allowances';
import type { StartFailure } from './startFailure';
import * as l10n from '@vscode/l10n';

/** The lifecycle in the words the panel and the status bar use. */
export type ManagedStatus = 'starting' | 'ready' | 'restarting' | 'exited';

/** Why a conversation restored after a window reload has no agent running: not an error. */
export const RESTORED_REASON = l10n.t('The window was reloaded; the agent starts again with your next message.');

/** A session as the rest of the extension sees it: the domain session plus the agent running it. */
export interface ManagedSession {
  readonly key: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly agentVersion?: string;
  readonly session: Session;
  /** Every state the session's agent can be in; moved only by the session manager and its runner. */
  readonly lifecycle: { readonly state: LifecycleState };
  readonly status: ManagedStatus;
  /** The session's working directory. */
  readonly cwd: string;
  /** Why the agent is not running, when it is not. */
  readonly exitReason?: string;
}

/** One running agent for a session: the connection, its router, and a scope disposed when the connection is over. */
export interface Started {
  connection: AgentConnection;
  router: SessionRouter;
  init: InitializeResult;
  spec: LaunchSpec;
  /** What was created for this connection (its terminals, its watchers): disposed when it is replaced or closed. */
  scope: DisposableStore;
}

/**
 * A session as the session manager holds it. Its `scope` owns everything created for the session (subscriptions,
 * the edits layer's attachment, the store's tracking, the current connection's scope) and is disposed when the
 * session closes.
 */
export class Managed implements ManagedSession {
  readonly scope: DisposableStore;
  /** Why the last restart failed, until the user acts on it. */
  startFailure: StartFailure | undefined;
  private started: Started | undefined;
  private followed: AttachedEdits | undefined;
  private editorContextValue: SessionEditorContext | undefined;

  constructor(
    readonly key: string,
    /** How to start the agent; a Retry after a failed restart reads it from the settings again. */
    public agent: KnownAgent,
    readonly session: Session,
    readonly log: AgentLog,
    readonly cwd: string,
    readonly lifecycle: SessionLifecycle,
    readonly restarts: RestartPolicy,
  ) {
    this.scope = new DisposableStore(`session ${key}`);
    this.scope.add(lifecycle);
    // Last out: its listeners go after everything that listened to it has let go.
    this.scope.onDispose(() => session.state.dispose());
    this.scope.add(session);
  }

  get agentId(): string {
    return this.agent.id;
  }

  get agentName(): string {
    return this.agent.name;
  }

  get agentVersion(): string | undefined {
    return this.connection?.initializeResult?.agentInfo?.version ?? undefined;
  }

  /** The agent running the session now; undefined before the first start or after a window reload. */
  get current(): Started | undefined {
    return this.started;
  }

  get connection(): AgentConnection | undefined {
    return this.started?.connection;
  }

  get router(): SessionRouter | undefined {
    return this.started?.router;
  }

  /** What the agent may do: the folders, read, write, commands, MCP servers (the panel shows it before the first prompt). */
  get allowances(): AllowancesView {
    return sessionAllowances(this.cwd, this.router);
  }

  get status(): ManagedStatus {
    const state = this.lifecycle.state;
    switch (state.kind) {
      case 'ready':
      case 'prompting':
        return 'ready';
      case 'starting':
        return 'starting';
      case 'restarting':
        return 'restarting';
      case 'signing-in':
        return state.restart ? 'restarting' : 'starting';
      default:
        return 'exited';
    }
  }

  get exitReason(): string | undefined {
    const state = this.lifecycle.state;
    if (state.kind === 'stopped' && state.reason.kind === 'restored') return RESTORED_REASON;
    return this.lifecycle.downReason;
  }

  /**
   * `started` serves the session from now on: the previous connection's scope is disposed (the caller has stopped
   * its agent), the new one is owned by the session's scope.
   */
  adopt(started: Started): void {
    if (this.started === started) return;
    this.started?.scope.dispose();
    this.started = started;
    this.scope.add(started.scope);
    started.scope.onDispose(() => this.scope.delete(started.scope));
  }

  /** The edits layer following this session, from its agent's first start until it closes. */
  get edits(): AttachedEdits | undefined {
    return this.followed;
  }

  /** Has `edits` follow the session from now until it closes (once: the same file access serves every restart). */
  followEdits(edits: SessionEdits | undefined): void {
    if (!this.followed && edits) this.followed = this.scope.add(edits.attach(this.key, this.session, this.cwd));
  }

  /** The session's editor-context server, passed on every session call of every restart; undefined without one. */
  get editorContext(): McpServer | undefined {
    return this.editorContextValue?.server;
  }

  /** Takes the session's editor-context server: its token works until this session's scope is disposed. */
  useEditorContext(context: SessionEditorContext | undefined): void {
    if (!context || this.editorContextValue) return;
    this.editorContextValue = context;
    this.scope.add(context.registration);
  }

  /** Whether `connection` is the one serving the session now (a late event of a replaced one is ignored). */
  serves(connection: AgentConnection): boolean {
    return this.started?.connection === connection;
  }
}

/** Unique across window reloads: saved conversations are stored under their key. */
export function newKey(): string {
  return `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
