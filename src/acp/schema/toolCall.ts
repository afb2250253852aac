import { z } from 'zod';
import { wrapBareTextContent } from '../compat';
import { ContentBlock } from './content';
import { list, Meta, openEnum, openUnion, opt } from './lenient';

/** DIGEST §11. */
export const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;
export const TOOL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export const ToolKind = openEnum(TOOL_KINDS);
export const ToolCallStatus = openEnum(TOOL_STATUSES);
export type ToolKind = z.output<typeof ToolKind>;
export type ToolCallStatus = z.output<typeof ToolCallStatus>;

export const ToolCallLocation = z.looseObject({ path: z.string(), line: opt(z.number().int().nonnegative()), _meta: Meta });
export type ToolCallLocation = z.output<typeof ToolCallLocation>;

export const ContentToolContent = z.looseObject({ type: z.literal('content'), content: ContentBlock, _meta: Meta });
/** `oldText` null or absent means a new file. A diff may be a fragment of the file or the whole file. */
export const DiffToolContent = z.looseObject({
  type: z.literal('diff'),
  path: z.string(),
  oldText: opt(z.string()),
  newText: z.string(),
  _meta: Meta,
});
export const TerminalToolContent = z.looseObject({ type: z.literal('terminal'), terminalId: z.string(), _meta: Meta });

export const ToolCallContent = openUnion('type', {
  content: ContentToolContent,
  diff: DiffToolContent,
  terminal: TerminalToolContent,
  text: z.looseObject({ type: z.literal('text'), text: z.string() }).transform(wrapBareTextContent),
});
export type ToolCallContent = z.output<typeof ToolCallContent>;
export type DiffToolContent = z.output<typeof DiffToolContent>;

const toolCallFields = {
  toolCallId: z.string(),
  kind: opt(ToolKind),
  status: opt(ToolCallStatus),
  content: opt(list(ToolCallContent)),
  locations: opt(list(ToolCallLocation)),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  name: opt(z.string()),
  _meta: Meta,
};

/** A `tool_call` update: a full tool call (title required). */
export const ToolCall = z.looseObject({ ...toolCallFields, title: z.string() });
/** A `tool_call_update`, or the `toolCall` of a permission request: only `toolCallId` is required. */
export const ToolCallUpdate = z.looseObject({ ...toolCallFields, title: opt(z.string()) });
export type ToolCall = z.output<typeof ToolCall>;
export type ToolCallUpdate = z.output<typeof ToolCallUpdate>;
