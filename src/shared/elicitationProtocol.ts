import { z } from 'zod';
import type { AnsweredField, FormModel } from './elicitationForm';

/**
 * An agent's question to the user (elicitation/create) as the page shows it: in the transcript, or in the start
 * area when it was asked before a session existed. Part of the host ↔ webview protocol (protocol.ts).
 */
export interface ElicitationView {
  /** Names it in the answer. */
  readonly key: number;
  readonly mode: 'form' | 'url';
  /** The agent's words. */
  readonly message: string;
  /** The title of the tool call it belongs to, when it names one we know. */
  readonly toolTitle?: string;
  readonly form?: FormModel;
  readonly url?: string;
  /** waiting, accepted, declined, cancelled, completed. */
  readonly status: string;
  readonly answered?: readonly AnsweredField[];
  /** turn, agent, closed: who ended it when the user did not. */
  readonly endedBy?: string;
}

const input = z.union([z.string().max(100_000), z.boolean(), z.array(z.string().max(10_000)).max(1_000)]);

/** Webview → host: the card's buttons. `inputs` (with `accept` on a form): the controls' values, checked by the host. */
export const ELICITATION_INTENTS = [
  z.object({
    type: z.literal('elicitation'),
    key: z.number().int().nonnegative(),
    action: z.enum(['accept', 'decline', 'cancel']),
    inputs: z.record(z.string().max(1_000), input).optional(),
  }),
] as const;
