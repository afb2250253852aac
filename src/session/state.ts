import type { QueuedMessage } from './promptQueue';
import type { TurnTokens } from '../acp/compat';
import type { UnknownSessionUpdate } from '../acp/schema/sessionUpdate';
import type { ContentBlock } from '../acp/schema/content';
import type { PermissionOption } from '../acp/schema/clientMethods';
import type { AvailableCommand, PlanEntry } from '../acp/schema/sessionUpdate';
import type { ConfigOption, SessionModeState, SessionModelState } from '../acp/schema/sessionConfig';
import type { ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '../acp/schema/toolCall';
import type { ElicitationRecord } from './elicitationRecord';

/** The domain state of one ACP session: what the panel renders, independent of VS Code. */

/** The agent's statuses plus our own: a rejected permission, or a call still open when the turn was cancelled. */
export type ToolStatus = ToolCallStatus | 'rejected' | 'cancelled';

export interface PermissionState {
  readonly requestId: number;
  readonly options: readonly PermissionOption[];
}

export interface ToolCallState {
  readonly toolCallId: string;
  title: string;
  kind: ToolKind;
  status: ToolStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  name?: string;
  meta?: Record<string, unknown>;
  /** Set while a permission request for this call waits on the user. */
  permission?: PermissionState;
  /** The option the user chose last, for the transcript. */
  permissionAnswer?: { optionId: string; name: string; kind: string } | 'cancelled';
  /** True when the first thing we heard of it was an update or a permission request, not a `tool_call`. */
  announcedLate?: boolean;
  /** What the client found out about the call's files, shown on its card (the edits layer adds them). */
  hostNotes?: HostNote[];
}

/**
 * - `untied-diff`: a `diff` the call reported that no reviewable change on disk matches (nothing to accept or reject);
 * - `written-after-refusal`: the agent wrote the file itself after its `fs/write_text_file` was refused.
 */
export interface HostNote {
  readonly kind: 'untied-diff' | 'written-after-refusal';
  readonly path: string;
}

/** A file a turn changed whose content before could not be recorded, and why. */
export interface UnrecordedChange {
  readonly path: string;
  readonly why: string;
}

export type MessageRole = 'user' | 'agent' | 'thought';

export type Entry =
  /**
   * `refused`: the agent ended this user message's turn with `refusal`; the protocol says the message and what came
   * after it are not part of the agent's context for the next prompt.
   */
  | { readonly kind: 'message'; readonly id: number; readonly role: MessageRole; messageId?: string; text: string; blocks: ContentBlock[]; refused?: true }
  | { readonly kind: 'tool'; readonly id: number; readonly toolCallId: string }
  /**
   * An agent's `notice` is `live`: it speaks of the moment (a rate limit, a reconnect) and is not saved. Howdah's own
   * notes (a fork, a carried-over conversation) say where a transcript came from, so they are.
   */
  | { readonly kind: 'notice'; readonly id: number; severity: string; title: string; description?: string; readonly live?: true }
  | { readonly kind: 'unknown'; readonly id: number; readonly update: UnknownSessionUpdate }
  | { readonly kind: 'turn-end'; readonly id: number; readonly stopReason: string; unrecorded?: UnrecordedChange[]; readonly tokens?: TurnTokens }
  | { readonly kind: 'error'; readonly id: number; readonly message: string; readonly detail?: string; readonly retryable: boolean }
  /** A context compaction (one per `compactionId`): its status, the summary so far, why it failed. */
  | { readonly kind: 'compaction'; readonly id: number; readonly compactionId: string; status: string; summary: ContentBlock[]; error?: string }
  /** The agent asked the user something (elicitation/create): a form or a link to open, and how it ended. */
  | { readonly kind: 'elicitation'; readonly id: number; readonly elicitation: ElicitationRecord };

export type TurnState = 'idle' | 'running' | 'cancelling';

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

export interface SessionInfoState {
  title?: string;
  updatedAt?: string;
}

/** What changed, so consumers re-read only that (the model owns the state). */
export type SessionChange =
  | { readonly type: 'entry-added'; readonly index: number }
  /** `appended`: the text added to a message, when that is all that changed (lets a listener send just that). */
  | { readonly type: 'entry-changed'; readonly index: number; readonly appended?: string }
  | { readonly type: 'tool-call'; readonly toolCallId: string }
  | { readonly type: 'plan' }
  | { readonly type: 'commands' }
  | { readonly type: 'modes' }
  | { readonly type: 'config' }
  | { readonly type: 'info' }
  | { readonly type: 'usage' }
  /** The turn state (`turn`) changed: running, cancelling or idle. */
  | { readonly type: 'turn' }
  /** Turn `index` (0 = the turn of the first user message) started: its user message is the last one in the transcript. */
  | { readonly type: 'turn-started'; readonly index: number }
  /** Turn `index` is over, with the agent's stop reason; none when it failed (an error entry says why) or was cut off by a restart. */
  | { readonly type: 'turn-ended'; readonly index: number; readonly stopReason?: string }
  /** A permission prompt now waits on the user, on this tool call. */
  | { readonly type: 'permission-requested'; readonly toolCallId: string }
  /** That prompt is over: answered, cancelled, withdrawn by the agent, or the agent went away. */
  | { readonly type: 'permission-settled'; readonly toolCallId: string }
  /** An elicitation now waits on the user, or is over (`key`: its ElicitationRecord.key). */
  | { readonly type: 'elicitation-requested'; readonly key: number }
  | { readonly type: 'elicitation-settled'; readonly key: number }
  /** Entries `start` (inclusive) to `end` (exclusive) were removed; later ones moved down. */
  | { readonly type: 'entries-removed'; readonly start: number; readonly end: number }
  /** Everything was replaced (a saved transcript restored): re-read it all. */
  | { readonly type: 'reset' }
  /** The messages queued during a turn changed. */
  | { readonly type: 'queue' };

export interface SessionStateView {
  readonly entries: readonly Entry[];
  readonly toolCalls: ReadonlyMap<string, ToolCallState>;
  readonly plan: readonly PlanEntry[];
  readonly commands: readonly AvailableCommand[];
  readonly modes: SessionModeState | undefined;
  readonly models: SessionModelState | undefined;
  readonly configOptions: readonly ConfigOption[];
  readonly info: SessionInfoState;
  readonly usage: Usage | undefined;
  readonly turn: TurnState;
  /** Messages the user sent during a turn, to go when it ends. */
  readonly queue: { readonly items: readonly QueuedMessage[] };
}
