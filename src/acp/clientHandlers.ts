import type { ProtocolWarning } from './jsonRpc';
import type {
  CreateTerminalParams,
  ElicitationParams,
  ElicitationResult,
  PermissionOutcome,
  ReadTextFileParams,
  RequestPermissionParams,
  TerminalExitStatus,
  TerminalParams,
  WriteTextFileParams,
} from './schema/clientMethods';
import type { SessionNotification } from './schema/sessionUpdate';

export interface TerminalOutputResult {
  output: string;
  truncated: boolean;
  exitStatus?: TerminalExitStatus;
}

/**
 * What the owner of a connection implements for the agent's calls. A method left out is answered `-32601`, as is
 * every method whose capability we did not advertise (checked before any of these runs).
 */
export interface ClientHandlers {
  /** Synchronous: updates of a session are applied in arrival order before any later response resolves. */
  sessionUpdate(notification: SessionNotification): void;
  requestPermission(params: RequestPermissionParams, signal: AbortSignal): Promise<PermissionOutcome>;
  readTextFile?(params: ReadTextFileParams, signal: AbortSignal): Promise<{ content: string }>;
  writeTextFile?(params: WriteTextFileParams, signal: AbortSignal): Promise<void>;
  createTerminal?(params: CreateTerminalParams, signal: AbortSignal): Promise<{ terminalId: string }>;
  terminalOutput?(params: TerminalParams, signal: AbortSignal): Promise<TerminalOutputResult>;
  waitForTerminalExit?(params: TerminalParams, signal: AbortSignal): Promise<TerminalExitStatus>;
  killTerminal?(params: TerminalParams, signal: AbortSignal): Promise<void>;
  releaseTerminal?(params: TerminalParams, signal: AbortSignal): Promise<void>;
  createElicitation?(params: ElicitationParams, signal: AbortSignal): Promise<ElicitationResult>;
  completeElicitation?(params: { elicitationId?: string | null }): void;
  /** `_`-prefixed custom requests (DIGEST §22). */
  extRequest?(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  extNotification?(method: string, params: unknown): void;
  /** The agent broke the protocol somewhere; logged, never fatal. */
  warning?(warning: ProtocolWarning): void;
}
