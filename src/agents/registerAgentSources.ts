import * as vscode from 'vscode';
import { AgentAccounts } from './agentAccounts';
import { AgentInstalls } from './agentInstalls';
import type { AgentSources } from './agentRegistry';
import { RegistryService } from './registryService';

/**
 * The ACP registry (snapshot, cache, background refresh), the agents Howdah installed and the extra accounts, in global storage
 * (agents are per machine, not per workspace). Neither blocks activation: the list starts from the snapshot.
 */
export function registerAgentSources(context: vscode.ExtensionContext): AgentSources {
  const registry = new RegistryService(context.globalStorageUri);
  const installs = new AgentInstalls(context.globalStorageUri);
  const accounts = new AgentAccounts(context.globalState, context.globalStorageUri);
  context.subscriptions.push(registry, installs, accounts);
  void registry.start();
  void installs.load();
  return { registry, installs, accounts };
}
