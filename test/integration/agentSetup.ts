// Agents registered by a test: the fake agent running a scenario with its own environment, under a fresh id.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

interface AgentSetting {
  name?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

let seq = 0;

/**
 * Adds `howdah.agents.<prefix>-<n>` running `scenario` (a name in fixtures/fake-agent/scenarios or, with `test:`
 * in front, in test/integration/scenarios) with `env`; resolves to its id.
 */
export async function registerAgent(prefix: string, scenario: string, env: Record<string, string> = {}, name?: string): Promise<string> {
  const config = vscode.workspace.getConfiguration('howdah');
  const agents = { ...(config.get<Record<string, AgentSetting>>('agents') ?? {}) };
  const fake = agents.fake;
  if (!fake) throw new Error('the harness did not register the agent "fake"');
  const devPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const file = scenario.startsWith('test:')
    ? path.join(devPath, 'test', 'integration', 'scenarios', `${scenario.slice(5)}.json`)
    : path.join(devPath, 'fixtures', 'fake-agent', 'scenarios', `${scenario}.json`);
  const id = `${prefix}-${++seq}-${Date.now().toString(36)}`;
  agents[id] = { name: name ?? id, command: fake.command, args: [fake.args[0], file], env };
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
  return id;
}

/** Changes agent `id`'s entry in `howdah.agents`, as the user would after Edit Agent Settings. */
export async function updateAgent(id: string, change: (agent: AgentSetting) => AgentSetting): Promise<void> {
  const config = vscode.workspace.getConfiguration('howdah');
  const agents = { ...(config.get<Record<string, AgentSetting>>('agents') ?? {}) };
  const agent = agents[id];
  if (!agent) throw new Error(`no agent ${id} is registered`);
  agents[id] = change(agent);
  await config.update('agents', agents, vscode.ConfigurationTarget.Global);
}
