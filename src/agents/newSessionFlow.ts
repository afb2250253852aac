import * as vscode from 'vscode';
import { pickAgent } from './agentPicker';
import type { ManagedSession } from './managedSession';
import type { SessionManager } from './sessionManager';

export interface NewSessionOptions {
  /**
   * False from the panel itself: the user may already be typing in the prompt, and focusing the view again seconds
   * later, when the agent has started, would take the keys they are typing away.
   */
  readonly focus?: boolean;
}

/**
 * Starting a new session the way the user asked for it (the New Session command, the panel, the first-run gate): with
 * no default agent, the user picks one first; the chat is shown unless asked not to. Failures have been shown to the
 * user by the manager; they resolve to undefined, as does dismissing the pick.
 */
export class NewSessionFlow {
  constructor(private readonly manager: Pick<SessionManager, 'registry' | 'newSession'>) {}

  async start(agentId?: string, options: NewSessionOptions = {}): Promise<ManagedSession | undefined> {
    const registry = this.manager.registry;
    let id = agentId;
    if (!id && !registry.hasDefault()) id = await pickAgent(registry);
    if (!id && !registry.hasDefault()) return undefined;
    const managed = await this.manager.newSession(id).catch(() => undefined);
    if (managed && options.focus !== false) await vscode.commands.executeCommand('howdah.chat.focus');
    return managed;
  }
}
