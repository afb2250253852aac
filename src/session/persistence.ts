import { z } from 'zod';
import type { SessionState } from './sessionState';
import type { Entry, ToolCallState } from './state';

/**
 * A session's transcript as saved in the extension's storage, so a conversation survives a window reload. What was
 * waiting on the user (permission prompts) and what was running (a turn) cannot survive and is not saved. Loaded data
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
});

export function serializeSession(state: SessionState, meta: Omit<PersistedSession, 'version' | 'entries' | 'toolCalls' | 'plan' | 'updatedAt' | 'title'>): PersistedSession {
  const toolCalls = [...state.toolCalls.values()].map(({ permission: _waiting, ...call }) => ({
    ...call,
    // A call still open when the window closed did not finish as far as we can tell.
    status: call.status === 'pending' || call.status === 'in_progress' ? ('cancelled' as const) : call.status,
  }));
  return {
    version: PERSISTED_VERSION,
    ...meta,
    title: state.info.title,
    updatedAt: new Date().toISOString(),
    entries: JSON.parse(JSON.stringify(state.entries)) as Entry[],
    toolCalls: JSON.parse(JSON.stringify(toolCalls)) as ToolCallState[],
    plan: JSON.parse(JSON.stringify(state.plan)) as unknown[],
  };
}

export function parsePersistedSession(raw: unknown): PersistedSession | undefined {
  const parsed = Persisted.safeParse(raw);
  return parsed.success ? (parsed.data as unknown as PersistedSession) : undefined;
}
