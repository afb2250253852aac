import { z } from 'zod';

/**
 * The panel's "before you can chat" states, shown above the conversation instead of a raw error: an agent waiting
 * for the user to sign in, a workspace where agents may not start, or no default agent yet (the agents found and
 * not found, to pick from). Part of the host ↔ webview protocol (src/panel/protocol.ts).
 */
export type GateView =
  | {
      readonly kind: 'signIn';
      readonly agentName: string;
      /** The agent's own words (often useful: which variable to set, a device code). */
      readonly message: string;
      readonly choices: readonly { readonly id: string; readonly label: string; readonly description?: string }[];
    }
  | { readonly kind: 'untrusted'; readonly message: string }
  | { readonly kind: 'chooseAgent'; readonly agents: readonly AgentChoiceView[] };

export interface AgentChoiceView {
  readonly id: string;
  readonly name: string;
  readonly installed: boolean;
  /** The command line of an installed agent; how to install (or which command is missing) otherwise. */
  readonly detail: string;
  /** The host can run the catalog's install command in a terminal. */
  readonly canInstall: boolean;
  /** The host can open the agent's documentation. */
  readonly hasDocs: boolean;
}

/** Host → webview: the gate now (`null`: nothing stands in the way). Sent on `ready` and whenever it changes. */
export interface GateMessage {
  readonly type: 'gate';
  readonly gate: GateView | null;
}

const id = z.string().min(1).max(1_000);

/** Webview → host: the gate's buttons. */
export const GATE_INTENTS = [
  /** A sign-in choice, or `null` to give up. */
  z.object({ type: z.literal('signIn'), choiceId: id.nullable() }),
  /** Start a session with this agent and make it the default. */
  z.object({ type: z.literal('chooseAgent'), agentId: id }),
  /** Run the catalog's install command for this agent in a terminal, or open its docs. */
  z.object({ type: z.literal('installAgent'), agentId: id }),
  z.object({ type: z.literal('agentDocs'), agentId: id }),
  /** Open VS Code's workspace trust editor. */
  z.object({ type: z.literal('manageTrust') }),
] as const;

export type GateIntent = z.output<(typeof GATE_INTENTS)[number]>;
