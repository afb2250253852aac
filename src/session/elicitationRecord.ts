import type { AnsweredField, FormModel } from '../shared/elicitationForm';

/**
 * One question an agent asked the user (`elicitation/create`, DIGEST §19) as the domain keeps it: in a session's
 * transcript, or — asked during `authenticate` or `session/new`, before a session exists — in the start area. Plain
 * data: saved with the transcript, never with a secret-looking value in it.
 */
export interface ElicitationRecord {
  /** Names it in the user's answer (unique in this window). */
  readonly key: number;
  readonly mode: 'form' | 'url';
  /** The agent's words: what it asks and why. */
  readonly message: string;
  /** The tool call it belongs to, when the agent said. */
  readonly toolCallId?: string;
  readonly form?: FormModel;
  /** URL mode: the link to open and the agent's id for it (`elicitation/complete` names it). */
  readonly url?: string;
  readonly elicitationId?: string;
  status: ElicitationStatus;
  /** What was sent with `accept` (form mode), as shown: secret-looking values hidden. */
  answered?: AnsweredField[];
  /** Why it ended when the user did not end it. */
  endedBy?: ElicitationEnd;
}

/**
 * `waiting` on the user; `accepted` (submitted, or agreed to open the link), `declined`, `cancelled`; `completed`: a
 * URL flow the agent said is finished (`elicitation/complete`).
 */
export type ElicitationStatus = 'waiting' | 'accepted' | 'declined' | 'cancelled' | 'completed';

/**
 * `turn`: Stop cancelled the turn; `agent`: the request's signal ended it — the agent withdrew it (`$/cancel_request`)
 * or its connection closed (both abort the signal; which one is not known here); `closed`: the session was closed.
 */
export type ElicitationEnd = 'turn' | 'agent' | 'closed';
