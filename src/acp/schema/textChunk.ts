import { SessionNotification } from './sessionUpdate';

/**
 * The hot path of a stream: a `session/update` carrying a plain text chunk, thousands a second. Checking one with the
 * zod schema costs ~15–25 µs (more than splitting and JSON.parse together); this check costs well under one and gives
 * exactly what the schema would: such a notification is valid as it is (every field it has is required or, when
 * absent, stays absent; unknown fields are kept because the object itself is returned). Anything else — other kinds,
 * other content, `_meta` or `annotations` present, a wrong type anywhere, Gemini's `[MODE_UPDATE]` text — is left to
 * the schema, which refuses what is bad with its usual message.
 */
const TEXT_CHUNK_KINDS = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `params` as a parsed `SessionNotification` when it is a plain text chunk; `undefined` means "ask the schema". */
export function plainTextChunk(params: unknown): SessionNotification | undefined {
  if (!isRecord(params) || typeof params.sessionId !== 'string' || params._meta !== undefined) return undefined;
  const update = params.update;
  if (!isRecord(update) || !TEXT_CHUNK_KINDS.has(update.sessionUpdate as string) || update._meta !== undefined) return undefined;
  if (update.messageId !== undefined && typeof update.messageId !== 'string') return undefined;
  const content = update.content;
  if (!isRecord(content) || content.type !== 'text' || typeof content.text !== 'string') return undefined;
  if (content.annotations !== undefined || content._meta !== undefined) return undefined;
  if (update.sessionUpdate === 'agent_message_chunk' && content.text.includes('[MODE_UPDATE]')) return undefined;
  return params as SessionNotification;
}

/** A `session/update`'s params parsed: the text-chunk fast path first, else the schema. */
export function parseSessionNotification(params: unknown): ReturnType<typeof SessionNotification.safeParse> {
  const fast = plainTextChunk(params);
  return fast ? { success: true, data: fast } : SessionNotification.safeParse(params);
}
