import type { z } from 'zod';
import {
  Empty,
  InitializeResult,
  ListSessionsResult,
  LoadSessionResult,
  NewSessionResult,
  PromptResult,
  SetConfigOptionResult,
  type AgentCapabilities,
  type McpServer,
  type PromptBlock,
} from './schema/agentMethods';
import {
  CreateTerminalParams,
  ElicitationParams,
  ReadTextFileParams,
  RequestPermissionParams,
  TerminalParams,
  WriteTextFileParams,
} from './schema/clientMethods';
import { SessionNotification } from './schema/sessionUpdate';
import type { ClientCapabilities } from './capabilities';

/**
 * The ACP v1 method table (DIGEST §4): every method once, with its schema and the capability that gates it.
 * Outgoing requests are parsed on their result; incoming ones on their params. Nothing else in the code base names a
 * method string.
 */

interface Outgoing<P, R extends z.ZodType> {
  readonly method: string;
  readonly result: R;
  /** Whether the agent advertised the method; absent means every agent has it. */
  readonly available?: (caps: AgentCapabilities) => boolean;
  /** Phantom: the params type we send. */
  readonly params?: P;
}
const out = <P, R extends z.ZodType>(method: string, result: R, available?: (caps: AgentCapabilities) => boolean): Outgoing<P, R> => ({
  method,
  result,
  available,
});

type SessionId = { sessionId: string };
type WithMeta = { _meta?: Record<string, unknown> };
interface SessionSetup extends WithMeta {
  cwd: string;
  mcpServers: McpServer[];
  additionalDirectories?: string[];
}

export const agentMethods = {
  initialize: out<{ protocolVersion: number; clientCapabilities: ClientCapabilities; clientInfo: { name: string; title?: string; version: string } }, typeof InitializeResult>('initialize', InitializeResult),
  authenticate: out<{ methodId: string } & WithMeta, typeof Empty>('authenticate', Empty),
  logout: out<WithMeta, typeof Empty>('logout', Empty, (c) => !!c.auth.logout),
  newSession: out<SessionSetup, typeof NewSessionResult>('session/new', NewSessionResult),
  loadSession: out<SessionSetup & SessionId, typeof LoadSessionResult>('session/load', LoadSessionResult, (c) => c.loadSession),
  resumeSession: out<Partial<SessionSetup> & { cwd: string } & SessionId, typeof LoadSessionResult>('session/resume', LoadSessionResult, (c) => !!c.sessionCapabilities.resume),
  listSessions: out<{ cwd?: string; cursor?: string } & WithMeta, typeof ListSessionsResult>('session/list', ListSessionsResult, (c) => !!c.sessionCapabilities.list),
  closeSession: out<SessionId, typeof Empty>('session/close', Empty, (c) => !!c.sessionCapabilities.close),
  /** Unstable: a new session of the agent's own, from an existing one's context. */
  forkSession: out<Partial<SessionSetup> & { cwd: string } & SessionId, typeof NewSessionResult>('session/fork', NewSessionResult, (c) => !!c.sessionCapabilities.fork),
  deleteSession: out<SessionId, typeof Empty>('session/delete', Empty, (c) => !!c.sessionCapabilities.delete),
  setMode: out<SessionId & { modeId: string }, typeof Empty>('session/set_mode', Empty),
  setConfigOption: out<SessionId & { configId: string } & ({ value: string } | { type: 'boolean'; value: boolean }), typeof SetConfigOptionResult>('session/set_config_option', SetConfigOptionResult),
  /** Legacy (DIGEST §24): removed from the schema, still used by agents that answer `models` (Gemini CLI). */
  setModel: out<SessionId & { modelId: string }, typeof Empty>('session/set_model', Empty),
  prompt: out<SessionId & { prompt: PromptBlock[] } & WithMeta, typeof PromptResult>('session/prompt', PromptResult),
} as const;

export type AgentMethodName = keyof typeof agentMethods;
export type ParamsOf<M extends AgentMethodName> = NonNullable<(typeof agentMethods)[M]['params']>;
export type ResultOf<M extends AgentMethodName> = z.output<(typeof agentMethods)[M]['result']>;

/** Notifications we send. */
export const agentNotifications = { cancel: 'session/cancel' } as const;

/** Methods the agent calls on us, with the client capability that must have been advertised. */
export const clientMethods = {
  sessionUpdate: { method: 'session/update', params: SessionNotification, notification: true, advertised: () => true },
  requestPermission: { method: 'session/request_permission', params: RequestPermissionParams, advertised: () => true },
  readTextFile: { method: 'fs/read_text_file', params: ReadTextFileParams, advertised: (c: ClientCapabilities) => !!c.fs?.readTextFile },
  writeTextFile: { method: 'fs/write_text_file', params: WriteTextFileParams, advertised: (c: ClientCapabilities) => !!c.fs?.writeTextFile },
  createTerminal: { method: 'terminal/create', params: CreateTerminalParams, advertised: (c: ClientCapabilities) => !!c.terminal },
  terminalOutput: { method: 'terminal/output', params: TerminalParams, advertised: (c: ClientCapabilities) => !!c.terminal },
  waitForTerminalExit: { method: 'terminal/wait_for_exit', params: TerminalParams, advertised: (c: ClientCapabilities) => !!c.terminal },
  killTerminal: { method: 'terminal/kill', params: TerminalParams, advertised: (c: ClientCapabilities) => !!c.terminal },
  releaseTerminal: { method: 'terminal/release', params: TerminalParams, advertised: (c: ClientCapabilities) => !!c.terminal },
  createElicitation: {
    method: 'elicitation/create',
    params: ElicitationParams,
    advertised: (c: ClientCapabilities) => !!(c.elicitation?.form || c.elicitation?.url),
  },
  completeElicitation: {
    method: 'elicitation/complete',
    params: ElicitationParams.pick({ elicitationId: true, _meta: true }),
    notification: true,
    advertised: (c: ClientCapabilities) => !!c.elicitation?.url,
  },
} as const;

export type ClientMethodKey = keyof typeof clientMethods;
export const clientMethodByName: ReadonlyMap<string, ClientMethodKey> = new Map(
  (Object.keys(clientMethods) as ClientMethodKey[]).map((key) => [clientMethods[key].method, key]),
);
