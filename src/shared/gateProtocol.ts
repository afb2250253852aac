import { z } from 'zod';
import type { ElicitationView } from './elicitationProtocol';

/**
 * The panel's "before you can chat" states, shown above the conversation instead of a raw error: an agent waiting
 * for the user to sign in, a workspace where agents may not start, an agent that could not start (why, and what to
 * do), or no default agent yet (the agents found and not found, to pick from). Part of the host ↔ webview protocol
 * (src/shared/protocol.ts).
 */
export type GateView =
  | {
      readonly kind: 'signIn';
      readonly agentName: string;
      /** The agent's own words (often useful: which variable to set, a device code). */
      readonly message: string;
      readonly choices: readonly { readonly id: string; readonly label: string; readonly description?: string }[];
    }
  /** An agent asks the user something while it starts (during authenticate or session/new): answered in the gate. */
  | { readonly kind: 'elicitation'; readonly agentName: string; readonly elicitation: ElicitationView }
  /** A start call (authenticate, session/new, load, resume) has not answered for a while: Cancel stops waiting. */
  | { readonly kind: 'startWaiting'; readonly id: string; readonly agentName: string; readonly step: string; readonly message: string }
  | { readonly kind: 'untrusted'; readonly message: string }
  | StartErrorView
  | { readonly kind: 'chooseAgent'; readonly agents: readonly AgentChoiceView[] };

/** An agent could not start a session (or continue one): held by the host until the user acts on it. */
export interface StartErrorView {
  readonly kind: 'startError';
  /** Names this failure in the buttons' intents. */
  readonly id: string;
  /** "<agent> could not start a session" / "… could not continue the conversation". */
  readonly title: string;
  readonly agentName: string;
  /** What failed, in Howdah's words. */
  readonly message: string;
  /** The agent's own words (the message of the error it answered): shown as such, never as markup. */
  readonly agentMessage?: string;
  /** The last lines it wrote to stderr, control sequences removed. */
  readonly stderr: readonly string[];
  /** The buttons, in order: `signIn` only when it failed signing in. */
  readonly actions: readonly StartErrorAction[];
}

/** What the start error's buttons ask for: start again (Sign in does, and the agent asks how), the agent's log, its settings, or hide it. */
export const START_ERROR_ACTIONS = ['retry', 'signIn', 'showLog', 'editSettings', 'dismiss'] as const;
export type StartErrorAction = (typeof START_ERROR_ACTIONS)[number];

export interface AgentChoiceView {
  readonly id: string;
  readonly name: string;
  readonly installed: boolean;
  /** Where it was found or how it is installed (Howdah's storage, your settings, PATH), with its program's name; how to get it otherwise. */
  readonly detail: string;
  /** The full command line, when it can start: for hover and a details fold, never the row's description. */
  readonly commandLine?: string;
  /** From the registry: what it is, its version and licence, how it is distributed ("binary", "npm", "uv"). */
  readonly description?: string;
  readonly version?: string;
  readonly license?: string;
  readonly distribution?: string;
  /** The agent's icon: only ever a `data:image/svg+xml;base64,…` URI, shown as a CSS mask (nothing in it can run or load). */
  readonly icon?: string;
  /** The host can install it from the registry ("Install <name>"). */
  readonly canInstall: boolean;
  /** A newer registry version than the installed one ("Update to X.Y.Z"). */
  readonly updateTo?: string;
  /** The host can open the agent's documentation. */
  readonly hasDocs: boolean;
  /** What the agent's own CLI says about signing in (absent: it cannot tell, or it is not known yet). */
  readonly signIn?: 'signed-in' | 'signed-out' | 'unknown';
  /** The host can run the agent's login in a terminal ("Sign in"). */
  readonly canSignIn?: boolean;
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
  /** Install (or update) this agent from the registry into Howdah's storage, or open its docs. */
  z.object({ type: z.literal('installAgent'), agentId: id }),
  z.object({ type: z.literal('agentDocs'), agentId: id }),
  /** Run this agent's login in a terminal; its sign-in state is checked again when the terminal closes. */
  z.object({ type: z.literal('signInAgent'), agentId: id }),
  /** Open VS Code's workspace trust editor. */
  z.object({ type: z.literal('manageTrust') }),
  /** Cancel on a start call that has not answered (`id`: the one shown). */
  z.object({ type: z.literal('cancelStart'), id }),
  /** A start error's button, for the failure `id`. */
  z.object({ type: z.literal('startError'), id, action: z.enum(START_ERROR_ACTIONS) }),
] as const;

export type GateIntent = z.output<(typeof GATE_INTENTS)[number]>;
