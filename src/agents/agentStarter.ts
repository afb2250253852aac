import * as vscode from 'vscode';
import { ConnectionClosedError, ErrorCode, RpcError, type StopCause } from '../acp/errors';
import type { McpServer } from '../acp/schema/agentMethods';
import { DisposableStore } from '../base/disposables';
import type { SessionLifecycle } from '../session/lifecycle';
import type { AgentLog } from './agentLog';
import type { AgentRegistry, KnownAgent } from './agentRegistry';
import { rejectedArguments } from './catalog';
import type { Started } from './managedSession';
import { mcpServersFor } from './mcpServers';
import { carryOutSignIn, signInChoices, type SignInPrompts } from './signIn';
import { SessionRouter } from './sessionRouter';
import type { StartQuestions } from './startQuestions';
import { SlowStarts } from './slowStarts';
import { during, markStep } from './startFailure';
import type { WorkspaceTrust } from './workspaceTrust';
import type { TerminalsService } from '../terminals/agentTerminals';
import type { EditorContextService, SessionEditorContext } from '../editorContext/editorContextService';
import type { AgentFiles } from '../workspace/agentFiles';

/**
 * Gets an agent from "configured" to "ready for a session call": resolve and spawn it, initialize (falling back to an
 * older ACP flag where the catalog knows one), and sign in whenever a call answers "authentication required".
 */
export class AgentStarter {
  constructor(
    private readonly registry: AgentRegistry,
    private readonly signIns: SignInPrompts,
    private readonly version: string,
    private readonly trust: WorkspaceTrust,
    private readonly terminals?: TerminalsService,
    private readonly startQuestions?: StartQuestions,
    /** Start calls that hang, for Cancel in the panel (see slowStarts.ts). */
    readonly slowStarts = new SlowStarts(() => undefined),
    private readonly editorContext?: EditorContextService,
  ) {}

  /**
   * Spawns and initializes; retries with the catalog's fallback flag when an older agent rejects the ACP flag. Every
   * agent process starts here, so this is where an untrusted workspace stops it.
   */
  async start(agent: KnownAgent, cwd: string, log: AgentLog, args: readonly string[] = agent.args): Promise<Started> {
    this.trust.check();
    const spec = await during('spawn', undefined, () => this.registry.launchSpec(agent, cwd, args));
    const router = new SessionRouter(spec.cwd, log, this.terminals, this.startQuestions);
    const scope = new DisposableStore(`connection ${agent.id}`);
    // The installed version stays while this connection runs it (an update removes it only afterwards).
    const lease = this.registry.lease(agent);
    if (lease) scope.add(lease);
    const connection = router.launch(spec, agent.name, this.version, scope);
    try {
      return { connection, router, init: await during('initialize', connection, () => connection.start()), spec, scope };
    } catch (error) {
      scope.dispose();
      const fallback = agent.catalog?.fallbackArgs;
      if (fallback && args !== fallback && error instanceof ConnectionClosedError && rejectedArguments(error.stderrTail)) {
        log.info(vscode.l10n.t('{0} rejected {1}; trying {2} (older versions).', agent.name, args.join(' '), fallback.join(' ')));
        return this.start(agent, cwd, log, fallback);
      }
      throw error;
    }
  }

  /**
   * Runs `call`; when the agent answers "authentication required", asks the user how to sign in (the session's
   * `lifecycle` is signing-in meanwhile), carries it out (reconnecting after a terminal login) and tries again, until
   * it works or the user gives up.
   */
  async withSignIn<T>(agent: KnownAgent, started: Started, log: AgentLog, lifecycle: SessionLifecycle, call: (s: Started) => Promise<T>): Promise<{ value: T; started: Started }> {
    let current = started;
    try {
      for (;;) {
        try {
          return { value: await call(current), started: current };
        } catch (error) {
          if (!(error instanceof RpcError) || error.code !== ErrorCode.authRequired) throw error;
          log.info(vscode.l10n.t('{0} needs a sign-in: {1}', agent.name, error.message));
          const methods = current.init.authMethods;
          const choices = signInChoices(agent, methods, true);
          lifecycle.signingIn();
          const answer = await this.signIns.ask({ agentId: agent.id, agentName: agent.name, message: error.message, choices }).finally(() => lifecycle.signedIn());
          const connection = current.connection;
          if (!answer) throw markStep(new Error(vscode.l10n.t('Signing in to {0} was cancelled.', agent.name)), 'authenticate', connection);
          const outcome = await carryOutSignIn(answer, agent, current.spec, methods, async (params) => {
            await during('authenticate', connection, () => this.slowStarts.run(agent.name, 'authenticate', (signal) => connection.acp.call('authenticate', params, signal)));
          });
          if (outcome === 'restart') {
            await this.stop(current, 'restart');
            current = await this.start(agent, current.spec.cwd, log);
          }
        }
      }
    } catch (error) {
      // The caller stops the connection it passed in; one started here after a terminal login is stopped here.
      if (current !== started) await this.stop(current, 'start-failed');
      throw error;
    }
  }

  /** Stops a connection and disposes what was created for it. */
  async stop(started: Started, cause: StopCause): Promise<void> {
    await started.connection.stop(cause);
    started.scope.dispose();
  }

  /**
   * The MCP servers for a session call: the session's own editor-context server first (`own`), then
   * `howdah.mcpServers` (one there with the same name is left out, said in the log).
   */
  mcpServers(started: Pick<Started, 'init' | 'router'>, log: AgentLog, own?: McpServer): McpServer[] {
    const { servers, problems } = mcpServersFor(vscode.workspace.getConfiguration('howdah').get('mcpServers'), started.init.agentCapabilities);
    for (const problem of problems) log.warn(problem);
    const clash = own && servers.some((s) => s.name === own.name);
    if (own && clash) log.warn(`howdah.mcpServers has a server named "${own.name}", the name of Howdah's editor-context server; not passed on.`);
    const passed = own ? [own, ...servers.filter((s) => s.name !== own.name)] : servers;
    // What the panel's "what the agent may do" summary shows.
    started.router.passedMcpServers = { servers: passed, own: own?.name };
    return passed;
  }

  /**
   * A new editor-context server for a session working in `cwd` whose file access `files` gives (once it has one),
   * when the setting is on. A failure here is logged and the session starts without it: it must never stop a start.
   */
  /** Whether sessions get the editor-context server now (`howdah.editorContext`, read at each start). */
  get editorContextOn(): boolean {
    return this.editorContext?.enabled ?? false;
  }

  async editorContextFor(files: () => AgentFiles | undefined, cwd: string, log: AgentLog): Promise<SessionEditorContext | undefined> {
    if (!this.editorContext?.enabled) return undefined;
    const roots = [cwd, ...(vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? []).filter((f) => f !== cwd)];
    try {
      return await this.editorContext.forSession(files, roots);
    } catch (error) {
      log.warn(`The editor-context server is not available to this session: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
