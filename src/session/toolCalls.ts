import type { ToolCall, ToolCallUpdate } from '../acp/schema/toolCall';
import type { ToolCallState } from './state';
import * as l10n from '@vscode/l10n';

/** Creates the state of a tool call from a `tool_call`, or from an update / permission request for an unseen id. */
export function createToolCall(source: ToolCall | ToolCallUpdate, announcedLate: boolean): ToolCallState {
  return {
    toolCallId: source.toolCallId,
    title: source.title ?? source.name ?? l10n.t('Tool call'),
    kind: source.kind ?? 'other',
    status: source.status ?? 'pending',
    content: source.content ?? [],
    locations: source.locations ?? [],
    rawInput: source.rawInput,
    rawOutput: source.rawOutput,
    name: source.name ?? undefined,
    meta: source._meta ?? undefined,
    announcedLate: announcedLate || undefined,
  };
}

/**
 * Applies a `tool_call_update`: only fields that are present change; `content` and `locations` replace the whole
 * collection (DIGEST §11). A `_meta` is merged so agent-specific keys from earlier updates survive.
 */
export function patchToolCall(state: ToolCallState, update: ToolCallUpdate): void {
  if (update.title != null) state.title = update.title;
  if (update.kind != null) state.kind = update.kind;
  if (update.status != null && (!isOurs(state.status) || update.status === 'completed')) state.status = update.status;
  if (update.content != null) state.content = update.content;
  if (update.locations != null) state.locations = update.locations;
  if (update.rawInput !== undefined) state.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) state.rawOutput = update.rawOutput;
  if (update.name != null) state.name = update.name;
  if (update._meta != null) state.meta = { ...state.meta, ...update._meta };
}

/**
 * Our own end states: a later `in_progress` or `failed` from the agent does not replace them (the user rejected it, or
 * cancelled the turn); a `completed` still wins, since the agent did run it.
 */
function isOurs(status: string): boolean {
  return status === 'rejected' || status === 'cancelled';
}

/** Replaces the whole state of `target` with a `tool_call` re-announcement of the same id. */
export function replaceToolCall(target: ToolCallState, source: ToolCall): void {
  const fresh = createToolCall(source, false);
  Object.assign(target, { ...fresh, permission: target.permission, permissionAnswer: target.permissionAnswer });
}
