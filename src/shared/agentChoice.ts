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
  const detail = agent.installed
    ? l10n.t('Installed {0} in Howdah\'s storage', agent.installed.version)
    : installed
      ? [agent.command, ...agent.args].join(' ')
      : r
        ? l10n.t('Not installed')
        : l10n.t('Not installed: command "{0}" not found', agent.command);
  return {
    id: agent.id,
    name: agent.name,
    installed,
    detail,
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
