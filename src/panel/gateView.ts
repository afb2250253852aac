import { agentChoice, type GateAgent } from '../shared/agentChoice';
import type { GateView, StartErrorAction, StartErrorView } from '../shared/gateProtocol';

export type { GateAgent } from '../shared/agentChoice';

export interface GateState {
  readonly signIn?: { readonly agentName: string; readonly message: string; readonly choices: readonly { readonly id: string; readonly label: string; readonly description?: string }[] };
  readonly trusted: boolean;
  /** Why an agent could not start (src/agents/startFailure.ts's StartFailure fits). */
  readonly startFailure?: Omit<StartErrorView, 'kind' | 'title' | 'actions'> & { readonly sessionKey?: string; readonly signIn: boolean };
  /** Set only when the user has to pick an agent: no session and no default agent. */
  readonly availability?: readonly { readonly agent: GateAgent; readonly installed: boolean; readonly update?: string; readonly signIn?: 'signed-in' | 'signed-out' | 'unknown' }[];
}

const UNTRUSTED = 'Agents do not start in an untrusted workspace: they run programs and change files. Trust this workspace to use Howdah.';

/**
 * What the panel shows before a conversation can go on; pure. A sign-in question comes first (an agent is waiting),
 * then an untrusted workspace (nothing can start), then why an agent could not start, then the first-run agent list,
 * installed agents first.
 */
export function gateView(state: GateState): GateView | undefined {
  if (state.signIn) {
    const { agentName, message, choices } = state.signIn;
    return { kind: 'signIn', agentName, message, choices: choices.map((c) => ({ id: c.id, label: c.label, description: c.description })) };
  }
  if (!state.trusted) return { kind: 'untrusted', message: UNTRUSTED };
  if (state.startFailure) {
    const { id, agentName, sessionKey, message, agentMessage, stderr, signIn } = state.startFailure;
    const title = sessionKey ? `${agentName} could not continue the conversation` : `${agentName} could not start a session`;
    const actions: StartErrorAction[] = [...(signIn ? (['signIn'] as const) : []), 'retry', 'showLog', 'editSettings', 'dismiss'];
    return { kind: 'startError', id, title, agentName, message, ...(agentMessage !== undefined ? { agentMessage } : {}), stderr: [...stderr], actions };
  }
  if (!state.availability) return undefined;
  const agents = state.availability.map(({ agent, installed, update, signIn }) => agentChoice(agent, installed, update, signIn));
  // Stable: installed first, each group in the registry's order (settings, then the catalog).
  return { kind: 'chooseAgent', agents: [...agents.filter((a) => a.installed), ...agents.filter((a) => !a.installed)] };
}
