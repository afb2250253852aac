import * as vscode from 'vscode';
import type { AgentConnection } from '../acp/agentConnection';
import type { LaunchSpec } from '../acp/agentProcess';
import { RpcError } from '../acp/errors';
import type { SessionNotification } from '../acp/schema/sessionUpdate';
import type { DisposableStore } from '../base/disposables';
import type { Session } from '../session/session';
import { AgentFiles } from '../workspace/agentFiles';
import type { ProtocolRecorder } from '../acp/protocolRecorder';
import type { CapabilitySettings } from '../acp/capabilities';
import type { McpServer } from '../acp/schema/agentMethods';
import { capabilitySettings, launchAgent } from './agentLauncher';
import type { AgentLog } from './agentLog';
import type { TerminalsService } from '../terminals/agentTerminals';
import type { StartQuestions } from './startQuestions';

/** The requests of ours an agent may ask the user a question during (request-scope elicitation, DIGEST §19). */
const QUESTION_SCOPES = new Set(['authenticate', 'session/new', 'session/load', 'session/resume']);

const MAX_EARLY_UPDATES = 10_000;

/**
 * Routes one agent connection's calls to the session they concern. Updates that arrive before `session/new` has
 * answered wait for their session; updates replayed by a `session/load` after a restart can be dropped (the
 * transcript is already here). Every agent call names its session; one for a session we do not have is refused.
 */
export class SessionRouter {
  private session: Session | undefined;
  private readonly early: SessionNotification[] = [];
  private dropping: string | undefined;
  private recorderValue: ProtocolRecorder | undefined;
  /** The session's file access (the edits layer's: buffer reads, reviewed writes), given with the session. */
  private files: AgentFiles | undefined;

  constructor(
    private readonly cwd: string,
    private readonly log: AgentLog,
    private readonly terminals?: TerminalsService,
    private readonly startQuestions?: StartQuestions,
  ) {}

  private plainRoots: readonly string[] = [];
  /** The file and terminal capabilities this connection offered (the settings at its launch). */
  offered: CapabilitySettings | undefined;
  /** The MCP servers passed on the session call, and the name of Howdah's own among them (see AgentStarter). */
  passedMcpServers: { servers: readonly McpServer[]; own?: string } | undefined;

  /**
   * The roots the session's file access confines the agent to (the edits layer's, once attached: granted folders
   * included); what `additionalDirectories` tells the agent.
   */
  get roots(): readonly string[] {
    return this.files?.sandbox.roots ?? this.plainRoots;
  }

  /** The connection's recent traffic, for the protocol log and the debug bundle. */
  get recorder(): ProtocolRecorder | undefined {
    return this.recorderValue;
  }

  /** Starts the agent; what is created for this connection (its terminals) is owned by `scope`. */
  launch(spec: LaunchSpec, name: string, version: string, scope: DisposableStore): AgentConnection {
    const roots = [this.cwd, ...(vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? []).filter((f) => f !== this.cwd)];
    // Until the session is known no agent call can name it (see `own`): this plain access is never reached by one.
    const files = new AgentFiles(roots);
    this.plainRoots = files.sandbox.roots;
    const own = (sessionId: string): Session => {
      if (!this.session || this.session.sessionId !== sessionId) throw RpcError.invalidParams(`Unknown session ${sessionId}`);
      return this.session;
    };
    const terminals = this.terminals?.forSession({
      agentName: name,
      cwd: this.cwd,
      roots,
      env: { ...process.env, ...spec.env },
      // A command the user already allowed through the agent's own permission prompt is not asked about twice.
      toolCalls: () => this.session?.state.toolCalls.values() ?? [],
    });
    this.offered = capabilitySettings(!!terminals);
    const { connection, recorder } = launchAgent(spec, name, version, this.offered, this.log, {
      sessionUpdate: (notification) => this.deliver(notification),
      requestPermission: async (params, signal) => own(params.sessionId).requestPermission(params, signal),
      readTextFile: async (params) => {
        own(params.sessionId).noteClientRead();
        return (this.files ?? files).read(params);
      },
      writeTextFile: async (params, signal) => {
        own(params.sessionId);
        return (this.files ?? files).write(params, signal);
      },
      createElicitation: async (params, signal) => {
        if (params.sessionId != null) return own(params.sessionId).elicitations.ask(params, signal);
        // Asked during one of our own start requests, before a session exists: the start area shows it.
        const method = params.requestId == null ? undefined : connection.acp.rpc.pendingMethod(params.requestId);
        if (!method || !QUESTION_SCOPES.has(method) || !this.startQuestions) {
          throw RpcError.invalidParams('An elicitation needs a sessionId, or the requestId of an authenticate or session request Howdah is waiting on');
        }
        return this.startQuestions.ask(params, signal, name);
      },
      completeElicitation: ({ elicitationId }) => {
        if (elicitationId == null) return;
        this.session?.elicitations.complete(elicitationId);
        this.startQuestions?.complete(elicitationId);
      },
      ...(terminals && {
        createTerminal: async (params, signal) => (own(params.sessionId), terminals.createTerminal(params, signal)),
        terminalOutput: async (params, signal) => (own(params.sessionId), terminals.terminalOutput(params, signal)),
        waitForTerminalExit: async (params, signal) => (own(params.sessionId), terminals.waitForTerminalExit(params, signal)),
        killTerminal: async (params, signal) => (own(params.sessionId), terminals.killTerminal(params, signal)),
        releaseTerminal: async (params, signal) => (own(params.sessionId), terminals.releaseTerminal(params, signal)),
      }),
    });
    // Every terminal of the session is released (its process tree killed) when the agent goes, or with the scope.
    if (terminals) {
      const release = scope.onDispose(() => void terminals.dispose());
      void connection.closed.then(() => release.dispose());
    }
    this.recorderValue = recorder;
    return connection;
  }

  /** The session this connection serves, with its file access; updates held for it are applied now, in order. */
  attach(session: Session, files?: AgentFiles): void {
    this.session = session;
    this.files = files;
    const held = this.early.splice(0);
    for (const n of held) this.deliver(n);
  }

  /** While set, updates for this session id are dropped (a `session/load` replay of what we already show). */
  dropUpdatesFor(sessionId: string | undefined): void {
    this.dropping = sessionId;
  }

  private deliver(notification: SessionNotification): void {
    if (this.dropping !== undefined && notification.sessionId === this.dropping) return;
    if (this.session && this.session.sessionId === notification.sessionId) {
      this.session.apply(notification.update);
      return;
    }
    if (this.early.length < MAX_EARLY_UPDATES) this.early.push(notification);
    else this.log.warn(`Dropped an update for unknown session ${notification.sessionId}`);
  }
}
