import type { AcpConnection } from '../acp/connection';
import type { ProtocolRecorder } from '../acp/protocolRecorder';
import type { InitializeResult } from '../acp/schema/agentMethods';
import type { AgentLog } from './agentLog';
import type { Managed } from './managedSession';

/**
 * What runs for each session, read from the session manager's own maps: its log, its current connection and
 * process, the version it was started from. For the log and protocol commands, the debug bundle, a fork made by the
 * agent, and tests; nothing here changes a session.
 */
export class SessionProbes {
  constructor(
    private readonly sessions: ReadonlyMap<string, Managed>,
    private readonly logs: ReadonlyMap<string, AgentLog>,
  ) {}

  /** The installed version the session's agent runs (Howdah's install of a registry agent), if it is one. */
  installedVersionOf(key: string): string | undefined {
    return this.sessions.get(key)?.agent.installed?.version;
  }

  /** The agent's output channel, "Howdah: <agent>". */
  showAgentLog(agentId: string): void {
    this.logs.get(agentId)?.show();
  }

  agentLogLinesOf(agentId: string): string[] {
    return this.logs.get(agentId)?.lines() ?? [];
  }

  agentLogLines(key: string): string[] {
    return this.sessions.get(key)?.log.lines() ?? [];
  }

  /** The traffic recorder and initialize result of the session's current connection. */
  protocolOf(key: string): { recorder?: ProtocolRecorder; init?: InitializeResult } {
    const managed = this.sessions.get(key);
    return { recorder: managed?.router?.recorder, init: managed?.connection?.initializeResult };
  }

  /** The connection serving the session while its agent runs, with what the agent said it can do. */
  runningAgent(key: string): { acp: AcpConnection; init: InitializeResult } | undefined {
    const managed = this.sessions.get(key);
    const connection = managed?.lifecycle.isRunning ? managed.connection : undefined;
    const init = connection?.initializeResult;
    return connection && init && { acp: connection.acp, init };
  }

  /** A running connection of agent `agentId`, from any of its sessions (to ask it without starting another). */
  connectionOfAgent(agentId: string): AcpConnection | undefined {
    for (const managed of this.sessions.values()) {
      if (managed.agent.id === agentId && managed.lifecycle.isRunning && managed.connection?.initializeResult) return managed.connection.acp;
    }
    return undefined;
  }

  showLog(key: string): void {
    this.sessions.get(key)?.log.show();
  }

  agentPid(key: string): number | undefined {
    const managed = this.sessions.get(key);
    return managed?.lifecycle.isRunning ? managed.connection?.process.pid : undefined;
  }
}
