import * as vscode from 'vscode';
import { conversationContext } from '../session/conversationContext';
import { pickAgent } from './agentPicker';
import type { ManagedSession } from './managedSession';
import type { SessionManager } from './sessionManager';

/**
 * "Continue with Another Agent…": a new session with the agent the user picks, carrying the conversation so far as
 * context with its first prompt (src/session/conversationContext.ts). The conversation it came from stays open in its
 * own tab, and the pending changes stay pending: they belong to the workspace, not to a session.
 */
export class HandOff {
  constructor(private readonly manager: SessionManager) {}

  /** From session `fromKey` (default: the active one) to `agentId` (default: asked). Undefined when nothing happened. */
  async run(fromKey?: string, agentId?: string): Promise<ManagedSession | undefined> {
    const from = fromKey ? this.manager.get(fromKey) : this.manager.active;
    if (!from) {
      void vscode.window.showInformationMessage('Howdah: open a conversation first; it is what the other agent continues.');
      return undefined;
    }
    const target =
      agentId ?? (await pickAgent(this.manager.registry, { title: `Howdah: Continue "${from.session.state.info.title ?? 'this conversation'}" with…`, makeDefault: false }));
    if (!target) return undefined;
    const context = conversationContext(from.session.state, { fromAgent: from.agentName });
    // The manager says why when it cannot start the agent.
    const next = await this.manager.newSession(target).catch(() => undefined);
    if (!next) return undefined;
    const state = next.session.state;
    state.carryOver = context.text;
    const left = context.omitted ? ` (the ${context.omitted} oldest left out, to stay within the size an agent can take in)` : '';
    state.addNote(
      `Continued from a copy of the conversation with ${from.agentName}`,
      `${context.included} messages and tool calls${left} go to ${next.agentName} with your next message. The conversation with ${from.agentName} stays open in its own tab; pending changes stay pending.`,
    );
    return next;
  }
}
