import type { ElicitationRecord } from '../session/elicitationRecord';
import { agentChoice, type GateAgent } from '../shared/agentChoice';
import type { GateView, StartErrorAction, StartErrorView } from '../shared/gateProtocol';
import { SLOW_START_MS } from '../agents/slowStarts';
import { elicitationView } from './elicitationView';
import * as l10n from '@vscode/l10n';

export type { GateAgent } from '../shared/agentChoice';

export interface GateState {
  readonly signIn?: { readonly agentName: string; readonly message: string; readonly choices: readonly { readonly id: string; readonly label: string; readonly description?: string }[] };
  /** A question an agent asks while it starts (src/agents/startQuestions.ts's StartQuestion fits). */
  readonly question?: { readonly agentName: string; readonly record: ElicitationRecord };
  /** A start call that has not answered for a while (src/agents/slowStarts.ts's SlowStart fits). */
  readonly slowStart?: { readonly id: string; readonly agentName: string; readonly step: string };
  readonly trusted: boolean;
  /** Why an agent could not start (src/agents/startFailure.ts's StartFailure fits). */
  readonly startFailure?: Omit<StartErrorView, 'kind' | 'title' | 'actions'> & { readonly sessionKey?: string; readonly signIn: boolean };
  /** Set only when the user has to pick an agent: no session and no default agent. */
  readonly availability?: readonly { readonly agent: GateAgent; readonly installed: boolean; readonly update?: string; readonly signIn?: 'signed-in' | 'signed-out' | 'unknown' }[];
}

const UNTRUSTED = l10n.t('Agents do not start in an untrusted workspace: they run programs and change files. Trust this workspace to use Howdah.');

/**
 * What the panel shows before a conversation can go on; pure. An agent's question comes first, then a sign-in question (an agent is waiting),
 * then an untrusted workspace (nothing can start), then why an agent could not start, then the first-run agent list,
 * installed agents first.
 */
export function gateView(state: GateState): GateView | undefined {
  // The agent waits on this answer inside one of our requests; nothing else can move until it is answered.
  if (state.question) return { kind: 'elicitation', agentName: state.question.agentName, elicitation: elicitationView(state.question.record) };
  if (state.signIn) {
    const { agentName, message, choices } = state.signIn;
    return { kind: 'signIn', agentName, message, choices: choices.map((c) => ({ id: c.id, label: c.label, description: c.description })) };
  }
  if (state.slowStart) {
    const { id, agentName, step } = state.slowStart;
    const message = l10n.t('{0} has not answered {1} for {2} seconds. It may still be working (installing, signing in, loading), or it may be stuck. Cancel stops waiting and stops the agent.', agentName, step, SLOW_START_MS / 1000);
    return { kind: 'startWaiting', id, agentName, step, message };
  }
  if (!state.trusted) return { kind: 'untrusted', message: UNTRUSTED };
  if (state.startFailure) {
    const { id, agentName, sessionKey, message, agentMessage, stderr, signIn } = state.startFailure;
    const title = sessionKey ? l10n.t('{0} could not continue the conversation', agentName) : l10n.t('{0} could not start a session', agentName);
    const actions: StartErrorAction[] = [...(signIn ? (['signIn'] as const) : []), 'retry', 'showLog', 'editSettings', 'dismiss'];
    return { kind: 'startError', id, title, agentName, message, ...(agentMessage !== undefined ? { agentMessage } : {}), stderr: [...stderr], actions };
  }
  if (!state.availability) return undefined;
  const agents = state.availability.map(({ agent, installed, update, signIn }) => agentChoice(agent, installed, update, signIn));
  // Stable: installed first, each group in the registry's order (settings, then the catalog).
  return { kind: 'chooseAgent', agents: [...agents.filter((a) => a.installed), ...agents.filter((a) => !a.installed)] };
}
