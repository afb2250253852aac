import { z } from 'zod';
import { currentModeIdOf, modeFromMessageText } from '../compat';
import { ContentBlock } from './content';
import { list, Meta, openEnum, openUnion, opt, type Unknown } from './lenient';
import { ConfigOptions } from './sessionConfig';
import { ToolCall, ToolCallUpdate } from './toolCall';

/** DIGEST §9, §13, §15, §16. */
const chunk = <K extends string>(kind: K) =>
  z.looseObject({ sessionUpdate: z.literal(kind), content: ContentBlock, messageId: opt(z.string()), _meta: Meta });

export const PlanEntry = z.looseObject({
  content: z.string(),
  priority: openEnum(['high', 'medium', 'low'] as const),
  status: openEnum(['pending', 'in_progress', 'completed'] as const),
  _meta: Meta,
});
export type PlanEntry = z.output<typeof PlanEntry>;

export const AvailableCommand = z.looseObject({
  name: z.string(),
  description: z.string().catch(''),
  input: opt(z.looseObject({ hint: z.string().catch('') })),
  _meta: Meta,
});
export type AvailableCommand = z.output<typeof AvailableCommand>;

/** Both spellings of the mode id are accepted (see compat.ts). */
const CurrentModeUpdate = z
  .looseObject({ sessionUpdate: z.literal('current_mode_update'), currentModeId: opt(z.string()), modeId: opt(z.string()), _meta: Meta })
  .refine((u) => currentModeIdOf(u) !== undefined, 'currentModeId is required')
  .transform(({ modeId: _legacy, ...rest }) => ({ ...rest, currentModeId: currentModeIdOf({ ...rest, modeId: _legacy }) as string }));

/** `null` clears, absent leaves unchanged: keep the distinction (DIGEST §2 patch fields). */
const patchString = z.string().nullable().optional().catch(undefined);

/** Patch semantics (DIGEST §2, §9): absent leaves the summary, `null` or `[]` clears it, a list replaces it. */
const patchContent = z.array(z.unknown()).nullable().optional().catch(undefined).transform((items) => (items == null ? items : list(ContentBlock).parse(items)));

export const SessionUpdate = openUnion('sessionUpdate', {
  user_message_chunk: chunk('user_message_chunk'),
  agent_message_chunk: chunk('agent_message_chunk'),
  agent_thought_chunk: chunk('agent_thought_chunk'),
  tool_call: ToolCall.extend({ sessionUpdate: z.literal('tool_call') }),
  tool_call_update: ToolCallUpdate.extend({ sessionUpdate: z.literal('tool_call_update') }),
  plan: z.looseObject({ sessionUpdate: z.literal('plan'), entries: list(PlanEntry), _meta: Meta }),
  available_commands_update: z.looseObject({
    sessionUpdate: z.literal('available_commands_update'),
    availableCommands: list(AvailableCommand),
    _meta: Meta,
  }),
  current_mode_update: CurrentModeUpdate,
  config_option_update: z.looseObject({ sessionUpdate: z.literal('config_option_update'), configOptions: ConfigOptions, _meta: Meta }),
  session_info_update: z.looseObject({ sessionUpdate: z.literal('session_info_update'), title: patchString, updatedAt: patchString, _meta: Meta }),
  usage_update: z.looseObject({
    sessionUpdate: z.literal('usage_update'),
    used: z.number(),
    size: z.number(),
    cost: opt(z.looseObject({ amount: z.number(), currency: z.string() })),
    _meta: Meta,
  }),
  /** A context compaction, one timeline entry per `compactionId` (DIGEST §9, needs `session.compaction`). */
  compaction_update: z.looseObject({
    sessionUpdate: z.literal('compaction_update'),
    compactionId: z.string(),
    status: openEnum(['in_progress', 'completed', 'failed', 'cancelled'] as const),
    summary: patchContent,
    error: patchString,
    _meta: z.record(z.string(), z.unknown()).nullable().optional().catch(undefined),
  }),
  compaction_summary_chunk: z.looseObject({ sessionUpdate: z.literal('compaction_summary_chunk'), compactionId: z.string(), content: ContentBlock, _meta: Meta }),
  notice: z.looseObject({
    sessionUpdate: z.literal('notice'),
    severity: openEnum(['info', 'warning', 'error'] as const),
    title: z.string(),
    description: opt(z.string()),
    _meta: Meta,
  }),
});
export type SessionUpdate = z.output<typeof SessionUpdate>;
export type UnknownSessionUpdate = Unknown<'sessionUpdate'>;
export type KnownSessionUpdate = Exclude<SessionUpdate, UnknownSessionUpdate>;
export type SessionUpdateOf<K extends KnownSessionUpdate['sessionUpdate']> = Extract<KnownSessionUpdate, { sessionUpdate: K }>;

export const SessionNotification = z
  .looseObject({ sessionId: z.string(), update: SessionUpdate, _meta: Meta })
  .transform((n) => ({ ...n, update: modeTextAsModeUpdate(n.update) }));

/** Gemini's `[MODE_UPDATE] <id>` message text becomes the mode change it means (see compat.ts). */
function modeTextAsModeUpdate(update: SessionUpdate): SessionUpdate {
  if (update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') return update;
  const modeId = modeFromMessageText(update.content.text);
  return modeId ? { sessionUpdate: 'current_mode_update', currentModeId: modeId, _meta: update._meta } : update;
}
export type SessionNotification = z.output<typeof SessionNotification>;
