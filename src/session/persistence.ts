import { z } from 'zod';
import type { SessionState } from './sessionState';
import type { QueuedMessage } from './promptQueue';
import type { Entry, ToolCallState } from './state';

/**
 * A session's transcript as saved in the extension's storage, so a conversation survives a window reload. What was
 * waiting on the user (permission prompts) and what was running (a turn) cannot survive and is not saved; nor are the
 * agent's notices, which are live only (state.ts). Loaded data
 * is parsed like any other input: a file from an older version or a damaged one yields what can be read.
 */
export const PERSISTED_VERSION = 1;

export interface PersistedSession {
  version: number;
  key: string;
  agentId: string;
  agentName: string;
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt: string;
  entries: Entry[];
  toolCalls: ToolCallState[];
  plan: unknown[];
  /** Messages queued during a turn, not sent yet. */
  queue?: QueuedMessage[];
  /** The conversation this one continues, not yet sent to its agent. */
  carryOver?: string;
}

const Persisted = z.object({
  version: z.literal(PERSISTED_VERSION),
  key: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  sessionId: z.string(),
  cwd: z.string(),
  title: z.string().optional(),
  updatedAt: z.string(),
  // Entries and tool calls were produced by our own reducer; each is checked for the fields rendering relies on.
  entries: z.array(z.looseObject({ kind: z.string(), id: z.number() })).catch([]),
  toolCalls: z.array(z.looseObject({ toolCallId: z.string(), title: z.string(), status: z.string(), content: z.array(z.unknown()), locations: z.array(z.unknown()) })).catch([]),
  plan: z.array(z.unknown()).catch([]),
  queue: z.array(z.object({ id: z.number().int().nonnegative(), text: z.string(), attachments: z.array(z.unknown()) })).optional().catch(undefined),
  carryOver: z.string().optional().catch(undefined),
});

type SessionMeta = Omit<PersistedSession, 'version' | 'entries' | 'toolCalls' | 'plan' | 'updatedAt' | 'title' | 'queue' | 'carryOver'>;

export function serializeSession(state: SessionState, meta: SessionMeta): PersistedSession {
  return JSON.parse(sessionToJson(state, meta)) as PersistedSession;
}

/**
 * The saved form as JSON text, built in one pass: the state is referenced, not copied, and stringified once (a long
 * session is tens of MB; the store saves it while the conversation goes on).
 */
export function sessionToJson(state: SessionState, meta: SessionMeta): string {
  const toolCalls = [...state.toolCalls.values()].map(({ permission: _waiting, ...call }) => ({
    ...call,
    // A call still open when the window closed did not finish as far as we can tell.
    status: call.status === 'pending' || call.status === 'in_progress' ? ('cancelled' as const) : call.status,
  }));
  const data = {
    version: PERSISTED_VERSION,
    ...meta,
    title: state.info.title,
    updatedAt: new Date().toISOString(),
    entries: state.entries.filter((entry) => !(entry.kind === 'notice' && entry.live)),
    toolCalls,
    plan: state.plan,
    ...(state.queue.size ? { queue: state.queue.items } : {}),
    ...(state.carryOver !== undefined ? { carryOver: state.carryOver } : {}),
  };
  try {
    return JSON.stringify(data);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify(cut(data, 0));
  }
}

/** Deeper than this, a saved value is cut (an agent's raw JSON can nest past what JSON.stringify's stack allows). */
const MAX_SAVED_DEPTH = 64;

function cut(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_SAVED_DEPTH) return '(nested too deeply to save)';
  if (Array.isArray(value)) return value.map((item) => cut(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v, depth + 1)]));
}

export function parsePersistedSession(raw: unknown): PersistedSession | undefined {
  const parsed = Persisted.safeParse(raw);
  return parsed.success ? (parsed.data as unknown as PersistedSession) : undefined;
}
