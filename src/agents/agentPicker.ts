import * as vscode from 'vscode';
import { agentChoice, agentPickRow } from '../shared/agentChoice';
import { ACCOUNT_HOMES } from './accountHomes';
import type { AgentAvailability, AgentRegistry } from './agentRegistry';

type Item = vscode.QuickPickItem & { availability: AgentAvailability };

/** One agent as a Quick Pick row: name, version, licence, how it is distributed, where it was found; the command line in the detail. */
function item(availability: AgentAvailability): Item {
  const { agent, installed, update, signIn } = availability;
  const view = agentChoice(agent, installed, update, signIn);
  const signedIn = signIn === 'signed-in' ? vscode.l10n.t('signed in') : signIn === 'signed-out' ? vscode.l10n.t('not signed in') : undefined;
  const state = [update ? vscode.l10n.t('update to {0}', update) : installed ? undefined : view.canInstall ? vscode.l10n.t('not installed') : undefined, signedIn].filter(Boolean).join(', ');
  return {
    ...agentPickRow(view, state),
    ...(view.icon ? { iconPath: vscode.Uri.parse(view.icon) } : {}),
    availability,
  };
}

/**
 * The first-run choice: every known agent, installed or not, as a Quick Pick. The choice becomes `howdah.defaultAgent`
 * unless told otherwise (`makeDefault: false`: a hand-over). A registry agent that is not installed is installed
 * first. Returns the agent id, or undefined when dismissed (or the install failed).
 */
export async function pickAgent(registry: AgentRegistry, options: { title?: string; placeHolder?: string; makeDefault?: boolean } = {}): Promise<string | undefined> {
  const items = (await registry.availability()).map(item);
  items.sort((a, b) => Number(b.availability.installed) - Number(a.availability.installed));
  const makeDefault = options.makeDefault ?? true;
  const choice = await vscode.window.showQuickPick(items, {
    title: options.title ?? vscode.l10n.t('Howdah: Choose an agent'),
    placeHolder: options.placeHolder ?? (makeDefault ? vscode.l10n.t('Agents found on this machine come first; choosing one makes it the default') : vscode.l10n.t('Agents found on this machine come first')),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!choice) return undefined;
  const { agent, installed } = choice.availability;
  if (!installed && agent.registry && !(await registry.install(agent.id))) return undefined;
  if (makeDefault) await makeDefaultAgent(agent.id);
  return agent.id;
}

/**
 * "Howdah: Add Agent…": every registry agent and the user's own, filtered by typing. Picking one installs it (or
 * updates it when the registry has a newer version); an installed one is started. Returns the agent id to start.
 */
export async function addAgent(registry: AgentRegistry): Promise<string | undefined> {
  const items = (await registry.availability()).map(item);
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Howdah: Add Agent'),
    placeHolder: vscode.l10n.t('Type to filter; choosing an agent installs it into Howdah’s storage (or starts it when installed)'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!choice) return undefined;
  const { agent, installed, update } = choice.availability;
  if (update || (!installed && agent.registry)) {
    if (!(await registry.install(agent.id))) return undefined;
    const start = await vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0} {1} is installed.', agent.name, agent.registry?.version ?? ''), vscode.l10n.t('Start {0}', agent.name));
    return start ? agent.id : undefined;
  }
  if (!installed) {
    await registry.offerInstall(agent);
    return undefined;
  }
  return agent.id;
}

/**
 * "Howdah: Add Account…": for an agent that keeps its configuration in one folder (accountHomes.ts), a second entry
 * ("Codex (Work)") whose folder is its own; signing in there leaves the first account alone. Returns the new id.
 */
export async function addAccount(registry: AgentRegistry): Promise<string | undefined> {
  const accounts = registry.sources?.accounts;
  if (!accounts) return undefined;
  const bases = registry.list().filter((a) => !a.account && a.id in ACCOUNT_HOMES);
  const base = await vscode.window.showQuickPick(
    bases.map((a) => ({ label: a.name, description: vscode.l10n.t('its own {0}', ACCOUNT_HOMES[a.id]!.variable), agent: a })),
    { title: vscode.l10n.t('Howdah: Add Account'), placeHolder: vscode.l10n.t('Agents that can keep a second account apart') },
  );
  if (!base) return undefined;
  const label = (await vscode.window.showInputBox({ title: vscode.l10n.t('Howdah: another {0} account', base.agent.name), prompt: vscode.l10n.t('A name for it, e.g. Work'), validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Give the account a name')) }))?.trim();
  if (!label) return undefined;
  const record = await accounts.add(base.agent.id, label);
  const name = `${base.agent.name} (${label})`;
  const start = await vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0} added; it signs in separately from {1}.', name, base.agent.name), vscode.l10n.t('Start {0}', name));
  return start ? record.id : undefined;
}

/** "Howdah: Remove Agent…": deletes an agent Howdah installed (its whole folder, every version), or an extra account. */
export async function removeAgent(registry: AgentRegistry): Promise<string | undefined> {
  const removable = registry.list().filter((a) => (a.installed && !a.account) || a.account);
  if (removable.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: no agent is installed in Howdah’s storage.'));
  const choice = await vscode.window.showQuickPick(
    removable.map((a) => ({ label: a.name, description: a.account ? vscode.l10n.t('account: its sign-in and settings are deleted') : `${a.installed!.version} · ${a.installed!.dir}`, agent: a })),
    { title: vscode.l10n.t('Howdah: Remove Agent'), placeHolder: vscode.l10n.t('The agent’s folder in Howdah’s storage is deleted') },
  );
  if (!choice) return undefined;
  if (choice.agent.account) {
    const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Remove {0}? Its configuration folder (with its sign-in) is deleted.', choice.agent.name), { modal: true }, vscode.l10n.t('Remove'));
    if (ok !== vscode.l10n.t('Remove')) return undefined;
    await registry.remove(choice.agent.id);
    return choice.agent.id;
  }
  const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Remove {0} {1}? Its folder in Howdah\'s storage is deleted.', choice.agent.name, choice.agent.installed!.version), { modal: true }, vscode.l10n.t('Remove'));
  if (ok !== vscode.l10n.t('Remove')) return undefined;
  try {
    await registry.remove(choice.agent.id);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: {0} was not removed: {1}.', choice.agent.name, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  return choice.agent.id;
}

/** The first-run choice is remembered as `howdah.defaultAgent` (user settings). */
export async function makeDefaultAgent(agentId: string): Promise<void> {
  await vscode.workspace.getConfiguration('howdah').update('defaultAgent', agentId, vscode.ConfigurationTarget.Global);
}
