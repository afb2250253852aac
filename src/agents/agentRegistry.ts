import * as vscode from 'vscode';
import type { LaunchSpec } from '../acp/agentProcess';
import { parseAgentSettings, type AgentDefinition } from './agentDefinitions';
import { CATALOG, catalogEntry, type CatalogEntry } from './catalog';
import { readLoginShellPath, resolveCommand, systemResolutionEnv } from './commandResolution';

/** An agent the user can pick: from settings, from the catalog, or both (settings win on the same id). */
export interface KnownAgent extends AgentDefinition {
  readonly catalog?: CatalogEntry;
  readonly source: 'settings' | 'catalog';
}

export class AgentNotFoundError extends Error {
  constructor(readonly agent: KnownAgent) {
    super(`${agent.name} is not installed: the command "${agent.command}" was not found on PATH or in the usual install folders.`);
    this.name = 'AgentNotFoundError';
  }
}

/**
 * Which agents exist and how to launch them. Commands are resolved beyond PATH (GUI-started editors miss the shell
 * profile's PATH); the login shell's PATH is read once, on the first command not found otherwise.
 */
export class AgentRegistry {
  private loginShellPath: Promise<string | undefined> | undefined;
  /** Problems already reported: the list is read often (the panel follows it), each problem is said once. */
  private readonly reported = new Set<string>();

  list(): KnownAgent[] {
    const { agents, problems } = parseAgentSettings(vscode.workspace.getConfiguration('howdah').get('agents'));
    for (const problem of problems) {
      if (this.reported.has(problem)) continue;
      this.reported.add(problem);
      void vscode.window.showWarningMessage(`Howdah: ${problem}`);
    }
    const custom: KnownAgent[] = agents.map((a) => ({ ...a, catalog: catalogEntry(a.id), source: 'settings' }));
    const builtIn: KnownAgent[] = CATALOG.filter((e) => !custom.some((c) => c.id === e.id)).map((e) => ({
      id: e.id,
      name: e.name,
      command: e.command,
      args: e.args,
      env: e.env ?? {},
      catalog: e,
      source: 'catalog',
    }));
    return [...custom, ...builtIn];
  }

  /**
   * The agent for an id; with none given, `howdah.defaultAgent`, else the agent from settings when there is exactly
   * one. With several and no default, the user is asked (the first-run picker), not given whichever comes first.
   */
  pick(agentId?: string): KnownAgent | undefined {
    const agents = this.list();
    const wanted = agentId || vscode.workspace.getConfiguration('howdah').get<string>('defaultAgent') || undefined;
    if (wanted) return agents.find((a) => a.id === wanted);
    const configured = agents.filter((a) => a.source === 'settings');
    return configured.length === 1 ? configured[0] : undefined;
  }

  /** Whether `howdah.defaultAgent` or the one configured agent gives new sessions an agent without asking. */
  hasDefault(): boolean {
    return this.pick() !== undefined;
  }

  /** The launch spec with the command resolved to a file; throws `AgentNotFoundError` when it cannot be found. */
  async launchSpec(agent: KnownAgent, cwd: string, args: readonly string[] = agent.args): Promise<LaunchSpec> {
    const resolution = systemResolutionEnv();
    let resolved = resolveCommand(agent.command, resolution);
    if (!resolved) {
      this.loginShellPath ??= readLoginShellPath();
      resolved = resolveCommand(agent.command, resolution, await this.loginShellPath);
    }
    if (!resolved) throw new AgentNotFoundError(agent);
    return { command: resolved.path, args, env: agent.env, cwd: agent.cwd ?? cwd };
  }

  /** Which agents are installed, for the first-run picker. */
  async availability(): Promise<{ agent: KnownAgent; installed: boolean }[]> {
    const agents = this.list();
    return Promise.all(
      agents.map(async (agent) => ({
        agent,
        installed: await this.launchSpec(agent, '/').then(
          () => true,
          () => false,
        ),
      })),
    );
  }
}

/** Offers to install a missing agent: the install command runs in a visible terminal, only when the user clicks. */
export async function offerInstall(agent: KnownAgent): Promise<void> {
  const install = agent.catalog?.install;
  const actions = [...(install ? ['Install'] : []), ...(agent.catalog?.docs ? ['Open Docs'] : [])];
  const detail = install ? ` Install it with: ${install}` : '';
  const choice = await vscode.window.showErrorMessage(`Howdah: ${agent.name} is not installed (command "${agent.command}" not found).${detail}`, ...actions);
  if (choice === 'Install' && install) {
    runInstall(agent);
  } else if (choice === 'Open Docs' && agent.catalog?.docs) {
    await vscode.env.openExternal(vscode.Uri.parse(agent.catalog.docs));
  }
}

/** Runs the catalog's install command for `agent` in a visible terminal (only ever on the user's click). */
export function runInstall(agent: KnownAgent): void {
  const install = agent.catalog?.install;
  if (!install) return;
  const terminal = vscode.window.createTerminal({ name: `Install ${agent.name}` });
  terminal.show();
  terminal.sendText(install);
}
