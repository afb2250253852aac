import type { AgentConnection } from '../acp/agentConnection';
import type { LaunchSpec } from '../acp/agentProcess';
import type { InitializeResult } from '../acp/schema/agentMethods';
import type { Session } from '../session/session';
import type { AgentLog } from './agentLog';
import type { KnownAgent } from './agentRegistry';
import { RestartPolicy } from './restartPolicy';
import type { SessionRouter } from './sessionRouter';
import type { StartFailure } from './startFailure';

export type ManagedStatus = 'starting' | 'ready' | 'restarting' | 'exited';

/** A session as the rest of the extension sees it: the domain session plus the agent running it. */
export interface ManagedSession {
  readonly key: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly agentVersion?: string;
  readonly session: Session;
  readonly status: ManagedStatus;
  /** The session's working directory. */
  readonly cwd: string;
  /** Why the agent stopped, when it did unexpectedly. */
  readonly exitReason?: string;
}

export class Managed implements ManagedSession {
  status: ManagedStatus = 'ready';
  exitReason: string | undefined;
  /** Why the last restart failed, until the user acts on it. */
  startFailure: StartFailure | undefined;
  readonly restarts = new RestartPolicy();
  constructor(
    readonly key: string,
    /** How to start the agent; a Retry after a failed restart reads it from the settings again. */
    public agent: KnownAgent,
    /** Undefined for a conversation restored after a window reload, until its agent starts again. */
    public connection: AgentConnection | undefined,
    public router: SessionRouter | undefined,
    readonly session: Session,
    readonly log: AgentLog,
    readonly cwd: string,
  ) {}
  get agentId(): string {
    return this.agent.id;
  }
  get agentName(): string {
    return this.agent.name;
  }
  get agentVersion(): string | undefined {
    return this.connection?.initializeResult?.agentInfo?.version ?? undefined;
  }
}

export interface Started {
  connection: AgentConnection;
  router: SessionRouter;
  init: InitializeResult;
  spec: LaunchSpec;
}

/** Unique across window reloads: saved conversations are stored under their key. */
export function newKey(): string {
  return `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
