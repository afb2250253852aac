import * as vscode from 'vscode';
import type { LaunchSpec } from '../acp/agentProcess';
import { parseAgentSettings, type AgentDefinition } from './agentDefinitions';
import type { AgentAccounts } from './agentAccounts';
import type { AgentInstalls } from './agentInstalls';
import { CATALOG, catalogEntry, catalogForRegistry, type CatalogEntry } from './catalog';
import { readLoginShellPath, resolveCommand, systemResolutionEnv } from './commandResolution';
import type { Installed } from './registry/installer';
import type { RegistryAgent } from './registry/registryFormat';
import { compareVersions } from './registry/version';
import type { RegistryService } from './registryService';
import { SignInStates } from './signInStates';
import type { SignInState } from './signInStatus';

/**
 * An agent the user can pick, in one list: from settings (`howdah.agents`, which win on the same id), from the ACP
 * registry (with the catalog's launch flags and sign-in command where it has them), or from the catalog alone (the
 * few agents the registry does not list, started from the user's own install on PATH).
 */
export interface KnownAgent extends AgentDefinition {
  readonly catalog?: CatalogEntry;
  readonly registry?: RegistryAgent;
  /** Installed by Howdah: the newest version in its storage. */
  readonly installed?: Installed;
  readonly source: 'settings' | 'registry' | 'catalog';
  /** A second account of another entry (`baseId`), with the agent's config home in a folder of its own. */
  readonly account?: { readonly baseId: string; readonly label: string };
}

export interface AgentAvailability {
  readonly agent: KnownAgent;
  /** Installed by Howdah, or its command found on this machine. */
  readonly installed: boolean;
  /** A newer registry version than the one installed. */
  readonly update?: string;
  /** What the agent's own CLI says, for an installed agent that can tell (undefined: not known yet, or cannot tell). */
  readonly signIn?: SignInState;
}

export class AgentNotFoundError extends Error {
  constructor(readonly agent: KnownAgent) {
    super(
      agent.registry
        ? vscode.l10n.t('{0} is not installed. Install it with "Install {1}" in the agent list or Howdah: Add Agent….', agent.name, agent.name)
        : vscode.l10n.t('{0} is not installed: the command "{1}" was not found on PATH or in the usual install folders.', agent.name, agent.command),
    );
    this.name = 'AgentNotFoundError';
  }
}

export interface AgentSources {
  readonly registry: RegistryService;
  readonly installs: AgentInstalls;
  readonly accounts?: AgentAccounts;
}

/**
 * Which agents exist and how to launch them. Commands are resolved beyond PATH (GUI-started editors miss the shell
 * profile's PATH); the login shell's PATH is read once, on the first command not found otherwise.
 */
export class AgentRegistry {
  private loginShellPath: Promise<string | undefined> | undefined;
  /** Problems already reported: the list is read often (the panel follows it), each problem is said once. */
  private readonly reported = new Set<string>();
  /** The registry was refreshed or an agent installed, updated or removed. */
  readonly onDidChange: vscode.Event<void>;

  /** Whether each agent is signed in, by its own CLI. */
  readonly signIns = new SignInStates((command) => this.resolve(command));

  constructor(readonly sources?: AgentSources) {
    this.onDidChange = (listener, thisArg, disposables) => {
      const subs = [this.signIns.onDidChange(listener, thisArg)];
      if (sources) subs.push(sources.registry.onDidChange(listener, thisArg), sources.installs.onDidChange(listener, thisArg), ...(sources.accounts ? [sources.accounts.onDidChange(listener, thisArg)] : []));
      const d = { dispose: () => subs.forEach((s) => s.dispose()) };
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }

  list(): KnownAgent[] {
    const { agents, problems } = parseAgentSettings(vscode.workspace.getConfiguration('howdah').get('agents'));
    for (const problem of problems) {
      if (this.reported.has(problem)) continue;
      this.reported.add(problem);
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: {0}', problem));
    }
    const result: KnownAgent[] = agents.map((a) => ({ ...a, catalog: catalogEntry(a.id), source: 'settings' }));
    const taken = new Set(result.map((a) => a.id));
    for (const registry of this.sources?.registry.agents() ?? []) {
      const catalog = catalogForRegistry(registry.id);
      const id = catalog?.id ?? registry.id;
      if (taken.has(id)) continue;
      taken.add(id);
      result.push(registryAgent(id, registry, catalog, this.sources?.installs.current(registry.id)));
    }
    // Installed from an entry the registry no longer lists: it still starts (and can be removed).
    const listed = new Set((this.sources?.registry.agents() ?? []).map((r) => r.id));
    for (const registryId of this.sources?.installs.installedIds() ?? []) {
      const installed = this.sources!.installs.current(registryId);
      const catalog = catalogForRegistry(registryId);
      const id = catalog?.id ?? registryId;
      if (listed.has(registryId) || taken.has(id) || !installed) continue;
      taken.add(id);
      result.push({ id, name: catalog?.name ?? registryId, catalog, installed, command: installed.executable, args: installed.args, env: installed.env, source: 'registry' });
    }
    for (const e of CATALOG) {
      if (taken.has(e.id)) continue;
      taken.add(e.id);
      result.push({ id: e.id, name: e.name, command: e.command, args: e.args, env: e.env ?? {}, catalog: e, source: 'catalog' });
    }
    // Each extra account right after the agent it is an account of.
    for (const record of this.sources?.accounts?.list() ?? []) {
      const at = result.findIndex((a) => a.id === record.baseId);
      if (at < 0 || taken.has(record.id)) continue;
      const base = result[at]!;
      const account: KnownAgent = { ...base, id: record.id, name: `${base.name} (${record.label})`, env: { ...base.env, ...this.sources!.accounts!.envOf(record) }, account: { baseId: record.baseId, label: record.label } };
      result.splice(at + 1 + result.slice(at + 1).filter((a) => a.account?.baseId === record.baseId).length, 0, account);
    }
    return result;
  }

  find(id: string): KnownAgent | undefined {
    return this.list().find((a) => a.id === id);
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
    const resolved = agent.command ? await this.resolve(agent.command) : undefined;
    if (!resolved) throw new AgentNotFoundError(agent);
    return { command: resolved, args, env: agent.env, cwd: agent.cwd ?? cwd };
  }

  private async resolve(command: string): Promise<string | undefined> {
    const resolution = systemResolutionEnv();
    const found = resolveCommand(command, resolution);
    if (found) return found.path;
    this.loginShellPath ??= readLoginShellPath();
    return resolveCommand(command, resolution, await this.loginShellPath)?.path;
  }

  /** Held by a session's connection for the installed version it runs (see AgentInstalls). */
  lease(agent: KnownAgent): vscode.Disposable | undefined {
    return agent.installed ? this.sources?.installs.lease(agent.installed) : undefined;
  }

  /** Which agents are installed (and which have an update), for the first-run list and Add Agent. */
  async availability(): Promise<AgentAvailability[]> {
    return Promise.all(this.list().map((agent) => this.availabilityOf(agent)));
  }

  async availabilityOf(agent: KnownAgent): Promise<AgentAvailability> {
    const update = agent.installed && agent.registry && compareVersions(agent.registry.version, agent.installed.version) > 0 ? agent.registry.version : undefined;
    const installed = await this.launchSpec(agent, '/').then(
      () => true,
      () => false,
    );
    const signIn = installed ? this.signIns.get(agent) : undefined;
    return { agent, installed, ...(update ? { update } : {}), ...(signIn ? { signIn } : {}) };
  }

  /** Installs (or updates) a registry agent with progress; true when it is installed afterwards. */
  async install(agentId: string): Promise<boolean> {
    const agent = this.find(agentId);
    if (!agent?.registry || !this.sources) return false;
    return (await this.sources.installs.install(agent.registry)) !== undefined;
  }

  /** Deletes what Howdah installed for a registry agent, or an extra account (its config folder). */
  async remove(agentId: string): Promise<void> {
    const agent = this.find(agentId);
    if (agent?.account && this.sources?.accounts) return this.sources.accounts.remove(agentId);
    if (!agent?.installed || !this.sources) throw new Error(vscode.l10n.t("{0} is not installed in Howdah's storage", agentId));
    await this.sources.installs.remove(agent.installed.id);
  }

  /** Offers to install a missing agent (only ever on the user's click), or its documentation. */
  async offerInstall(agent: KnownAgent): Promise<void> {
    const docs = agent.catalog?.docs ?? agent.registry?.website ?? agent.registry?.repository;
    const actions = [...(agent.registry ? [vscode.l10n.t('Install {0}', agent.name)] : []), ...(docs ? [vscode.l10n.t('Open Docs')] : [])];
    const choice = await vscode.window.showErrorMessage(vscode.l10n.t('Howdah: {0}', new AgentNotFoundError(agent).message), ...actions);
    if (choice === vscode.l10n.t('Install {0}', agent.name)) await this.install(agent.id);
    else if (choice === vscode.l10n.t('Open Docs') && docs) await vscode.env.openExternal(vscode.Uri.parse(docs));
  }
}

function registryAgent(id: string, registry: RegistryAgent, catalog: CatalogEntry | undefined, installed: Installed | undefined): KnownAgent {
  const base = { id, name: registry.name, catalog, registry, source: 'registry' as const };
  // Installed by Howdah: exactly what the registry said for that version. Otherwise the user's own install, if any.
  if (installed) return { ...base, installed, command: installed.executable, args: installed.args, env: installed.env };
  return { ...base, command: catalog?.command ?? '', args: catalog?.args ?? [], env: catalog?.env ?? {} };
}
