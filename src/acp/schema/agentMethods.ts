import { z } from 'zod';
import { ContentBlock } from './content';
import { list, Meta, openEnum, opt } from './lenient';
import { ConfigOptions, sessionStateFields } from './sessionConfig';

/** Results of the methods the agent implements (DIGEST §5–§8). Params we send are typed, not parsed. */

export const Implementation = z.looseObject({ name: z.string().catch('agent'), title: opt(z.string()), version: opt(z.string()), _meta: Meta });
export type Implementation = z.output<typeof Implementation>;

const capabilityObject = opt(z.looseObject({}));
export const AgentCapabilities = z.looseObject({
  loadSession: z.boolean().catch(false).default(false),
  promptCapabilities: z
    .looseObject({
      image: z.boolean().catch(false).default(false),
      audio: z.boolean().catch(false).default(false),
      embeddedContext: z.boolean().catch(false).default(false),
    })
    .catch({ image: false, audio: false, embeddedContext: false })
    .default({ image: false, audio: false, embeddedContext: false }),
  mcpCapabilities: z
    .looseObject({ http: z.boolean().catch(false).default(false), sse: z.boolean().catch(false).default(false) })
    .catch({ http: false, sse: false })
    .default({ http: false, sse: false }),
  sessionCapabilities: z
    .looseObject({
      list: capabilityObject,
      delete: capabilityObject,
      resume: capabilityObject,
      close: capabilityObject,
      additionalDirectories: capabilityObject,
      /** Unstable (DIGEST §7): `session/fork`. */
      fork: capabilityObject,
    })
    .catch({})
    .default({}),
  auth: z.looseObject({ logout: capabilityObject }).catch({}).default({}),
  _meta: Meta,
});
export type AgentCapabilities = z.output<typeof AgentCapabilities>;

/** `type` absent means an agent-handled method; `terminal` runs the agent's login interactively; others are kept, not used. */
export const AuthMethod = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: opt(z.string()),
  type: openEnum(['agent', 'terminal'] as const).catch('agent').default('agent'),
  args: opt(z.array(z.string())),
  env: opt(z.record(z.string(), z.string())),
  _meta: Meta,
});
export type AuthMethod = z.output<typeof AuthMethod>;

export const InitializeResult = z.looseObject({
  // Lenient: an Obsidian client broke on a protocolVersion sent as a string (peers.md).
  protocolVersion: z.union([z.number(), z.string().transform(Number)]),
  agentCapabilities: AgentCapabilities.catch(AgentCapabilities.parse({})).default(AgentCapabilities.parse({})),
  authMethods: list(AuthMethod).default([]),
  agentInfo: opt(Implementation),
  _meta: Meta,
});
export type InitializeResult = z.output<typeof InitializeResult>;

/** `null` and `{}` mean the same: several methods are documented with a null result. */
const nullAsEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null || v === undefined ? {} : v), schema);

export const Empty = nullAsEmpty(z.looseObject({ _meta: Meta }));
export const NewSessionResult = z.looseObject({ sessionId: z.string(), ...sessionStateFields });
export const LoadSessionResult = nullAsEmpty(z.looseObject(sessionStateFields));
export type NewSessionResult = z.output<typeof NewSessionResult>;
export type LoadSessionResult = z.output<typeof LoadSessionResult>;

export const SessionInfo = z.looseObject({
  sessionId: z.string(),
  cwd: z.string(),
  additionalDirectories: opt(z.array(z.string())),
  title: opt(z.string()),
  updatedAt: opt(z.string()),
  _meta: Meta,
});
export type SessionInfo = z.output<typeof SessionInfo>;
export const ListSessionsResult = z.looseObject({ sessions: list(SessionInfo), nextCursor: opt(z.string()), _meta: Meta });
export const SetConfigOptionResult = z.looseObject({ configOptions: ConfigOptions, _meta: Meta });

export const STOP_REASONS = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const;
const count = z.number().int().nonnegative();
/** Unstable (schema.unstable.json): the turn's token counts. */
export const Usage = z.looseObject({
  totalTokens: count,
  inputTokens: count,
  outputTokens: count,
  thoughtTokens: opt(count),
  cachedReadTokens: opt(count),
  cachedWriteTokens: opt(count),
  _meta: Meta,
});
export const PromptResult = z.looseObject({ stopReason: openEnum(STOP_REASONS), usage: opt(Usage), _meta: Meta });
export type StopReason = z.output<typeof PromptResult>['stopReason'];

/** Params types for what we send: built by our code, so typed rather than parsed. */
export interface McpServerStdio {
  name: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}
export interface McpServerHttp {
  type: 'http' | 'sse';
  name: string;
  url: string;
  headers: { name: string; value: string }[];
}
export type McpServer = McpServerStdio | McpServerHttp;
export type PromptBlock = Exclude<ContentBlock, { type: 'unknown' }>;
