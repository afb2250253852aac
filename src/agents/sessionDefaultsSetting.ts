import * as vscode from 'vscode';
import type { Session } from '../session/session';
import type { AgentLog } from './agentLog';
import { changesForDefaults, rememberChoice, type SessionDefaults } from './sessionDefaults';

/** Applies `howdah.sessionDefaults` for the agent to a new session; a value the agent refuses is logged, not fatal. */
export async function applySessionDefaults(agentId: string, session: Session, log: AgentLog): Promise<void> {
  const defaults = vscode.workspace.getConfiguration('howdah').get<SessionDefaults>('sessionDefaults', {});
  for (const change of changesForDefaults(defaults[agentId], session.state)) {
    try {
      if (change.kind === 'config') await session.setConfigOption(change.id, change.value);
      else if (change.kind === 'mode') await session.setMode(String(change.value));
      else await session.setModel(String(change.value));
    } catch (error) {
      log.warn(`Could not apply the default ${change.id} = ${String(change.value)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Remembers the user's pick in the user's settings, so the agent's next session starts with it. */
export async function rememberSessionDefault(agentId: string, key: string, value: string | boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('howdah');
  const current = config.get<SessionDefaults>('sessionDefaults', {});
  if (current[agentId]?.[key] === value) return;
  await config.update('sessionDefaults', rememberChoice(current, agentId, key, value), vscode.ConfigurationTarget.Global);
}
