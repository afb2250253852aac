/** JSON-RPC and ACP error codes (DIGEST §21). */
export const ErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  authRequired: -32000,
  resourceNotFound: -32002,
} as const;

/** An error answered by the peer (or produced by us for a request), carrying the JSON-RPC code, message and data. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static methodNotFound(method: string): RpcError {
    return new RpcError(ErrorCode.methodNotFound, `Method not found: ${method}`);
  }
  static invalidParams(message: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.invalidParams, message, data);
  }
  static cancelled(message = 'Request cancelled'): RpcError {
    return new RpcError(ErrorCode.requestCancelled, message);
  }
  static resourceNotFound(message: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.resourceNotFound, message, data);
  }
  static internal(message: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.internalError, message, data);
  }
}

/** The connection to the agent ended (process exit, closed stream): every pending request rejects with this. */
/** Why Howdah stopped an agent itself; an agent that ended without one of these crashed. */
export type StopCause = 'user' | 'restart' | 'window-closing' | 'untrusted' | 'start-failed';

export class ConnectionClosedError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: string | null,
    readonly stderrTail: readonly string[],
    /** Set when Howdah stopped the agent, with why; undefined when the agent ended by itself. */
    readonly stopCause?: StopCause,
  ) {
    super(message);
    this.name = 'ConnectionClosedError';
  }
}

/** A single incoming line exceeded the size cap; only that message is lost. */
export class MessageTooLargeError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`Message of at least ${size} bytes exceeds the ${limit}-byte limit and was dropped`);
    this.name = 'MessageTooLargeError';
  }
}
