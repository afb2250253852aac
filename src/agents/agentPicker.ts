import * as vscode from 'vscode';
import type { AgentRegistry, KnownAgent } from './agentRegistry';

/**
 * The first-run choice: every known agent, installed or not (with how to install it), as a Quick Pick. The choice
 * becomes `howdah.defaultAgent`. Returns the agent id, or undefined when dismissed.
 */
/** Asks for an agent; unless told otherwise (`makeDefault: false`: a hand-over), the choice becomes the default. */
export async function pickAgent(registry: AgentRegistry, options: { title?: string; placeHolder?: string; makeDefault?: boolean } = {}): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { agent: KnownAgent; installed: boolean };
  const items = (await registry.availability()).map(
    ({ agent, installed }): Item => ({
      label: agent.name,
      description: installed ? [agent.command, ...agent.args].join(' ') : 'not installed',
      detail: installed ? undefined : agent.catalog?.install ? `Install: ${agent.catalog.install}` : `Command "${agent.command}" not found`,
      agent,
      installed,
    }),
  );
  items.sort((a, b) => Number(b.installed) - Number(a.installed));
  const makeDefault = options.makeDefault ?? true;
  const choice = await vscode.window.showQuickPick(items, {
    title: options.title ?? 'Howdah: Choose an agent',
    placeHolder: options.placeHolder ?? (makeDefault ? 'Agents found on this machine come first; choosing one makes it the default' : 'Agents found on this machine come first'),
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (makeDefault) await makeDefaultAgent(choice.agent.id);
  return choice.agent.id;
}

/** The first-run choice is remembered as `howdah.defaultAgent` (user settings). */
export async function makeDefaultAgent(agentId: string): Promise<void> {
  await vscode.workspace.getConfiguration('howdah').update('defaultAgent', agentId, vscode.ConfigurationTarget.Global);
}
