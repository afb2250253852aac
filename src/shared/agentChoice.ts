import type { AgentChoiceView } from './gateProtocol';
import * as l10n from '@vscode/l10n';

/** An agent as the registry knows it (src/agents/agentRegistry.ts's KnownAgent fits). */
export interface GateAgent {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly source?: 'settings' | 'registry' | 'catalog';
  readonly catalog?: { readonly docs?: string; readonly signIn?: string };
  readonly registry?: {
    readonly version: string;
    readonly description: string;
    readonly license?: string;
    readonly icon?: string;
    readonly website?: string;
    readonly repository?: string;
    readonly distribution: { readonly binary?: unknown; readonly npx?: unknown; readonly uvx?: unknown };
  };
  readonly installed?: { readonly version: string; readonly method: 'binary' | 'npx' | 'uvx' };
}

const DISTRIBUTION_NAMES = { binary: 'binary', npx: 'npm', uvx: 'uv' } as const;
const INLINE_SVG = /^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/;

/**
 * One agent as the agent lists show it (the panel's first-run list, Add Agent's Quick Pick), in one place for both:
 * how it runs or can be got, its registry facts, Install / Update / Sign in. Only an inline SVG passes as its icon.
 */
export function agentChoice(agent: GateAgent, installed: boolean, update?: string, signIn?: 'signed-in' | 'signed-out' | 'unknown'): AgentChoiceView {
  const r = agent.registry;
  const kinds = r ? (['binary', 'npx', 'uvx'] as const).filter((k) => r.distribution[k] !== undefined).map((k) => DISTRIBUTION_NAMES[k]) : [];
  const distribution = agent.installed ? DISTRIBUTION_NAMES[agent.installed.method] : agent.source === 'settings' ? l10n.t('your settings') : kinds.length ? kinds.join(', ') : undefined;
  const detail = whereFound(agent, installed);
  return {
    id: agent.id,
    name: agent.name,
    installed,
    detail,
    ...(installed ? { commandLine: commandLine(agent.command, agent.args) } : {}),
    ...(r ? { description: r.description, version: agent.installed?.version ?? r.version } : {}),
    ...(r?.license ? { license: r.license } : {}),
    ...(distribution ? { distribution } : {}),
    ...(r?.icon && INLINE_SVG.test(r.icon) ? { icon: r.icon } : {}),
    canInstall: !installed && !!r,
    ...(update ? { updateTo: update } : {}),
    hasDocs: !!(agent.catalog?.docs ?? r?.website ?? r?.repository),
    ...(signIn ? { signIn } : {}),
    ...(installed && agent.catalog?.signIn ? { canSignIn: true } : {}),
  };
}

/** The program's own name, without its folder (either separator: the host may be Windows). */
function programName(command: string): string {
  return command.split(/[\\/]/).filter(Boolean).pop() ?? command;
}

const isAbsolute = (command: string) => command.startsWith('/') || /^[A-Za-z]:[\\/]/.test(command) || command.startsWith('\\\\');

/**
 * Where an agent was found or how it is installed, in words short enough for a list row: Howdah's storage, the
 * user's settings, PATH, or a folder of this machine, with the program's name; the full command line is for hover.
 */
export function whereFound(agent: GateAgent, installed: boolean): string {
  const program = programName(agent.command);
  if (agent.installed) return l10n.t('Installed {0} in Howdah\'s storage (from the ACP registry)', agent.installed.version);
  if (agent.source === 'settings') return installed ? l10n.t('From your settings (howdah.agents): runs {0}', program) : l10n.t('From your settings (howdah.agents): "{0}" not found', program);
  if (!installed) return agent.registry ? l10n.t('Not installed') : l10n.t('Not installed: "{0}" not found on PATH', program);
  return isAbsolute(agent.command) ? l10n.t('Found on this machine: {0}', program) : l10n.t('Found on PATH: {0}', program);
}

/** The full command line, arguments with spaces quoted: shown only on hover or in a fold. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

/** One agent as a Quick Pick row: what a person needs in the label and description, the command line in the detail. */
export function agentPickRow(view: AgentChoiceView, state: string): { label: string; description: string; detail: string } {
  return {
    label: view.name,
    description: [view.version, view.license, view.distribution, state].filter(Boolean).join(' · '),
    detail: [view.description, view.detail, view.commandLine && l10n.t('Command: {0}', view.commandLine)].filter(Boolean).join(' — '),
  };
}
