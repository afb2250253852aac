import * as vscode from 'vscode';
import { AgentConnection } from '../acp/agentConnection';
import { buildClientCapabilities, type CapabilitySettings } from '../acp/capabilities';
import { ConnectionClosedError, ErrorCode, RpcError } from '../acp/errors';
import type { PromptBlock } from '../acp/schema/agentMethods';
import type { SessionNotification, SessionUpdate } from '../acp/schema/sessionUpdate';
import { formatTrace, type TraceLevel } from '../acp/trace';
import { Session } from '../session/session';
import { AgentFiles } from '../workspace/agentFiles';
import { parseAgentSettings, type AgentDefinition } from './agentDefinitions';
import { AgentLog } from './agentLog';

export type ManagedStatus = 'starting' | 'ready' | 'exited';

/** A session as the rest of the extension sees it: the domain session plus the agent running it. */
export interface ManagedSession {
  readonly key: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly agentVersion?: string;
  readonly session: Session;
  readonly status: ManagedStatus;
}

class Managed implements ManagedSession {
  status: ManagedStatus = 'ready';
  constructor(
    readonly key: string,
    readonly agent: AgentDefinition,
    readonly connection: AgentConnection,
    readonly session: Session,
    readonly log: AgentLog,
  ) {}
  get agentId(): string {
    return this.agent.id;
  }
  get agentName(): string {
    return this.connection.initializeResult?.agentInfo?.title ?? this.agent.name;
  }
  get agentVersion(): string | undefined {
    return this.connection.initializeResult?.agentInfo?.version ?? undefined;
  }
}

const CLIENT_INFO = { name: 'howdah', title: 'Howdah', version: '0.1.0' };

/**
 * Starts agents and their sessions, routes each agent's calls to the session they concern, and keeps the list the
 * panel shows. One agent process per session: a crash or a hung agent takes one conversation down, not all of them,
 * and each session keeps the environment and capabilities it was started with.
 */
export class SessionManager implements vscode.Disposable {
  private readonly sessions = new Map<string, Managed>();
  private readonly logs = new Map<string, AgentLog>();
  private activeKey: string | undefined;
  private nextKey = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly version: string) {}

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

  agents(): AgentDefinition[] {
    const { agents, problems } = parseAgentSettings(vscode.workspace.getConfiguration('howdah').get('agents'));
    for (const problem of problems) void vscode.window.showWarningMessage(`Howdah: ${problem}`);
    return agents;
  }

  /** Starts the agent and a session with it. Throws (after telling the user) when it cannot. */
  async newSession(agentId?: string): Promise<ManagedSession> {
    if (!vscode.workspace.isTrusted) {
      throw this.fail('Howdah does not start agents in an untrusted workspace: agents run programs and change files. Trust the workspace to use them.');
    }
    const config = vscode.workspace.getConfiguration('howdah');
    const wanted = agentId || config.get<string>('defaultAgent') || undefined;
    const agents = this.agents();
    const agent = wanted ? agents.find((a) => a.id === wanted) : agents[0];
    if (!agent) {
      throw this.fail(wanted ? `No agent "${wanted}" is configured in howdah.agents.` : 'No agent is configured: add one to the howdah.agents setting.');
    }
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
    if (folders.length === 0) throw this.fail('Open a folder first: an agent works inside a workspace folder.');
    const cwd = folders[0];
    const log = this.logFor(agent);
    const connection = this.connect(agent, cwd, folders, log);
    try {
      const init = await connection.start();
      log.info(`Connected to ${init.agentInfo?.name ?? agent.name} ${init.agentInfo?.version ?? ''} (protocol ${init.protocolVersion})`);
      const result = await connection.acp.call('newSession', { cwd, mcpServers: [] });
      const managed = new Managed(`s${this.nextKey++}`, agent, connection, new Session(connection.acp, result.sessionId, result), log);
      this.sessions.set(managed.key, managed);
      this.flushEarlyUpdates(connection, managed);
      void connection.closed.then((error) => this.onAgentExit(managed, error));
      this.activeKey = managed.key;
      this.changed.fire();
      return managed;
    } catch (error) {
      await connection.stop();
      throw this.fail(describeStartFailure(agent, error), log);
    }
  }

  async prompt(key: string, blocks: PromptBlock[]): Promise<void> {
    const managed = this.sessions.get(key);
    if (!managed) throw new Error(`No session ${key}`);
    if (managed.status === 'exited') throw new Error(`${managed.agentName} is not running`);
    // Errors are recorded in the transcript by the session; the promise is for callers that want to know.
    await managed.session.prompt(blocks);
  }

  agentLogLines(key: string): string[] {
    return this.sessions.get(key)?.log.lines() ?? [];
  }

  agentPid(key: string): number | undefined {
    const managed = this.sessions.get(key);
    return managed && managed.status !== 'exited' ? managed.connection.process.pid : undefined;
  }

  async stop(key: string): Promise<void> {
    const managed = this.sessions.get(key);
    if (managed) await managed.connection.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((m) => m.connection.stop()));
  }

  dispose(): void {
    void this.stopAll();
    for (const log of this.logs.values()) log.dispose();
    this.changed.dispose();
  }

  private logFor(agent: AgentDefinition): AgentLog {
    let log = this.logs.get(agent.id);
    if (!log) this.logs.set(agent.id, (log = new AgentLog(agent.name)));
    return log;
  }

  /** Updates that arrive before session/new has answered wait here for their session. */
  private readonly early = new WeakMap<AgentConnection, SessionNotification[]>();

  private connect(agent: AgentDefinition, cwd: string, roots: string[], log: AgentLog): AgentConnection {
    const config = vscode.workspace.getConfiguration('howdah');
    const settings: CapabilitySettings = {
      readFiles: config.get<boolean>('fs.read', true),
      writeFiles: config.get<'apply' | 'ask' | 'off'>('fs.write', 'apply'),
      // Terminals are offered once VS Code terminals back them (terminal/* handlers).
      terminal: 'off',
      terminalAuth: false,
    };
    const traceLevel = () => vscode.workspace.getConfiguration('howdah').get<TraceLevel>('trace', 'off');
    const files = new AgentFiles(roots);
    const route = (sessionId: string) => [...this.sessions.values()].find((m) => m.connection === connection && m.session.sessionId === sessionId);
    const connection: AgentConnection = new AgentConnection(
      { command: agent.command, args: agent.args, env: agent.env, cwd: agent.cwd ?? cwd },
      {
        name: agent.name,
        clientInfo: { ...CLIENT_INFO, version: this.version },
        capabilities: buildClientCapabilities(settings),
        stderr: (line) => log.stderr(line),
        trace: (event) => {
          const line = formatTrace(event, traceLevel());
          if (line) log.trace(line);
        },
        handlers: {
          sessionUpdate: (notification) => {
            const managed = route(notification.sessionId);
            if (managed) managed.session.apply(notification.update);
            else this.holdEarly(connection, notification);
          },
          requestPermission: (params, signal) => {
            const managed = route(params.sessionId);
            if (!managed) return Promise.reject(RpcError.invalidParams(`Unknown session ${params.sessionId}`));
            return managed.session.requestPermission(params, signal);
          },
          readTextFile: (params) => {
            if (!route(params.sessionId)) return Promise.reject(RpcError.invalidParams(`Unknown session ${params.sessionId}`));
            return files.read(params);
          },
          writeTextFile: (params) => {
            if (!route(params.sessionId)) return Promise.reject(RpcError.invalidParams(`Unknown session ${params.sessionId}`));
            return files.write(params);
          },
          warning: (warning) => log.warn(`Protocol: ${warning.message}${warning.raw ? ` — ${warning.raw.slice(0, 200)}` : ''}`),
        },
      },
    );
    return connection;
  }

  private holdEarly(connection: AgentConnection, notification: SessionNotification): void {
    let held = this.early.get(connection);
    if (!held) this.early.set(connection, (held = []));
    if (held.length < 10_000) held.push(notification);
  }

  private flushEarlyUpdates(connection: AgentConnection, managed: Managed): void {
    const held = this.early.get(connection);
    if (!held) return;
    const mine: SessionUpdate[] = [];
    this.early.set(
      connection,
      held.filter((n) => (n.sessionId === managed.session.sessionId ? (mine.push(n.update), false) : true)),
    );
    for (const update of mine) managed.session.apply(update);
  }

  private onAgentExit(managed: Managed, error: ConnectionClosedError): void {
    managed.status = 'exited';
    managed.session.dispose();
    const expected = error.message.endsWith('was stopped');
    managed.log[expected ? 'info' : 'error'](error.message);
    // A running turn records the failure itself when its prompt rejects; an idle session needs the entry here.
    if (!expected && managed.session.state.turn === 'idle') {
      managed.session.state.addError(error.message.split('\n')[0], error.stderrTail.slice(-20).join('\n') || undefined, false);
    }
    this.changed.fire();
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

function describeStartFailure(agent: AgentDefinition, error: unknown): string {
  if (error instanceof RpcError && error.code === ErrorCode.authRequired) {
    return `${agent.name} needs you to sign in first: ${error.message}`;
  }
  if (error instanceof ConnectionClosedError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `${agent.name} could not start a session: ${message}`;
}
