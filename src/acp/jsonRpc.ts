import type { Readable, Writable } from 'node:stream';
import { ErrorCode, MessageTooLargeError, RpcError } from './errors';
import { LineSplitter, MAX_LINE_BYTES } from './lineFraming';
import { MessageWriter } from './messageWriter';
import * as l10n from '@vscode/l10n';

export type RequestId = number | string;

/** What a connection needs from its owner. Notifications are delivered synchronously, in arrival order. */
export interface RpcHandlers {
  request(method: string, params: unknown, context: { id: RequestId; signal: AbortSignal }): Promise<unknown>;
  notification(method: string, params: unknown): void;
}

export type TraceDirection = 'send' | 'receive';
export interface TraceEvent {
  direction: TraceDirection;
  /** The parsed message, or the raw text when it could not be parsed. */
  message: unknown;
  bytes: number;
}

/** Something the peer did that breaks JSON-RPC or the protocol: logged, never fatal. */
export interface ProtocolWarning {
  kind: 'invalid-json' | 'invalid-message' | 'unknown-response' | 'oversized' | 'handler-error';
  message: string;
  raw?: string;
}

export interface JsonRpcOptions {
  maxLineBytes?: number;
  trace?: (event: TraceEvent) => void;
  warn?: (warning: ProtocolWarning) => void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Message = Record<string, unknown>;

/**
 * JSON-RPC 2.0 over newline-delimited JSON. Incoming requests run concurrently (a slow handler never blocks the stream);
 * notifications and responses are processed in arrival order, notifications synchronously, so a notification that
 * arrived before a response is seen before that response's promise settles.
 */
export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly incoming = new Map<RequestId, AbortController>();
  private readonly writer: MessageWriter;
  private readonly splitter: LineSplitter;
  private closedWith: Error | undefined;
  private readonly onData = (chunk: Buffer) => this.splitter.push(chunk);
  private readonly onEnd = () => this.splitter.end();

  constructor(
    private readonly input: Readable,
    output: Writable,
    private readonly handlers: RpcHandlers,
    private readonly options: JsonRpcOptions = {},
  ) {
    this.writer = new MessageWriter(output);
    this.splitter = new LineSplitter(
      {
        line: (text) => {
          // Nothing one line does may stop the stream: a throw here would end every later message with it.
          try {
            this.receive(text);
          } catch (error) {
            this.warn({ kind: 'handler-error', message: `Processing a message failed: ${(error as Error).message}`, raw: text.slice(0, 500) });
          }
        },
        oversized: (error: MessageTooLargeError) => this.warn({ kind: 'oversized', message: error.message }),
      },
      options.maxLineBytes ?? MAX_LINE_BYTES,
    );
    input.on('data', this.onData);
    input.on('end', this.onEnd);
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Sends a request. Aborting `signal` sends `$/cancel_request`; the promise still settles with the peer's answer. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      if (signal) {
        const onAbort = () => {
          if (this.pending.has(id)) void this.notify('$/cancel_request', { requestId: id }).catch(() => {});
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
      this.send({ jsonrpc: '2.0', id, method, params }).catch((error: Error) => {
        if (this.pending.delete(id)) reject(error);
      });
    });
  }

  notify(method: string, params: unknown): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.send({ jsonrpc: '2.0', method, params });
  }

  /** The method of request `id` we sent and the peer has not answered yet (a peer may name it, DIGEST §19). */
  pendingMethod(id: RequestId): string | undefined {
    return this.pending.get(id)?.method;
  }

  /** Requests we sent that have not been answered yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Ends the connection: every pending request rejects with `error`, incoming handlers are aborted. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const [, pending] of this.pending) pending.reject(error);
    this.pending.clear();
    for (const [, controller] of this.incoming) controller.abort();
    this.incoming.clear();
  }

  /**
   * Closes (every pending request rejects with `error`) and stops reading: the input's listeners are removed, so
   * nothing of this connection stays reachable from a stream that lives on.
   */
  dispose(error: Error = new Error(l10n.t('The connection was disposed'))): void {
    this.close(error);
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
  }

  private send(message: Message): Promise<void> {
    const line = JSON.stringify(message);
    this.traceEvent({ direction: 'send', message, bytes: Buffer.byteLength(line) });
    return this.writer.write(line);
  }

  /** The trace is a log: a message it cannot format (nested too deep, say) must not stop the message itself. */
  private traceEvent(event: TraceEvent): void {
    try {
      this.options.trace?.(event);
    } catch (error) {
      this.warn({ kind: 'handler-error', message: `Tracing a message failed: ${(error as Error).message}` });
    }
  }

  private warn(warning: ProtocolWarning): void {
    try {
      this.options.warn?.(warning);
    } catch {
      // A warning that cannot be logged is dropped, never thrown into the stream.
    }
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.traceEvent({ direction: 'receive', message: text, bytes: text.length });
      this.warn({ kind: 'invalid-json', message: `Invalid JSON from the agent: ${(error as Error).message}`, raw: text.slice(0, 500) });
      this.reply(null, undefined, new RpcError(ErrorCode.parseError, 'Parse error'));
      return;
    }
    this.traceEvent({ direction: 'receive', message, bytes: text.length });
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.warn({ kind: 'invalid-message', message: 'Not a JSON-RPC message object (batches are not part of ACP)', raw: text.slice(0, 500) });
      this.reply(null, undefined, new RpcError(ErrorCode.invalidRequest, 'Invalid Request'));
      return;
    }
    this.dispatch(message as Message, text);
  }

  private dispatch(message: Message, text: string): void {
    const id = message.id;
    const hasId = typeof id === 'number' || typeof id === 'string';
    if (typeof message.method === 'string') {
      if (hasId) this.handleRequest(id, message.method, message.params);
      else if (id === undefined || id === null) this.handleNotification(message.method, message.params);
      else this.reply(null, undefined, new RpcError(ErrorCode.invalidRequest, 'Invalid Request: id must be a number or a string'));
      return;
    }
    if (hasId && ('result' in message || 'error' in message)) {
      this.handleResponse(id, message);
      return;
    }
    this.warn({ kind: 'invalid-message', message: 'Message is neither a request, a notification nor a response', raw: text.slice(0, 500) });
    if (!('result' in message || 'error' in message)) {
      this.reply(hasId ? id : null, undefined, new RpcError(ErrorCode.invalidRequest, 'Invalid Request'));
    }
  }

  private handleResponse(id: RequestId, message: Message): void {
    const pending = this.pending.get(id);
    if (!pending) {
      this.warn({ kind: 'unknown-response', message: `Response to an unknown request id ${JSON.stringify(id)}` });
      return;
    }
    this.pending.delete(id);
    const error = message.error;
    if (error !== undefined && error !== null) {
      const e = error as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(
        new RpcError(
          typeof e.code === 'number' ? e.code : ErrorCode.internalError,
          typeof e.message === 'string' ? e.message : l10n.t('{0} failed', pending.method),
          e.data,
        ),
      );
    } else {
      pending.resolve(message.result);
    }
  }

  private handleNotification(method: string, params: unknown): void {
    if (method === '$/cancel_request') {
      const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'number' || typeof requestId === 'string') this.incoming.get(requestId)?.abort();
      return;
    }
    try {
      this.handlers.notification(method, params);
    } catch (error) {
      this.warn({ kind: 'handler-error', message: `Handling ${method} failed: ${(error as Error).message}` });
    }
  }

  private handleRequest(id: RequestId, method: string, params: unknown): void {
    const controller = new AbortController();
    this.incoming.set(id, controller);
    let result: Promise<unknown>;
    try {
      result = this.handlers.request(method, params, { id, signal: controller.signal });
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => this.finishRequest(id, controller, value, undefined),
      (error: unknown) => this.finishRequest(id, controller, undefined, error),
    );
  }

  private finishRequest(id: RequestId, controller: AbortController, value: unknown, error: unknown): void {
    if (this.incoming.get(id) === controller) this.incoming.delete(id);
    if (this.closedWith) return;
    if (error === undefined) {
      this.reply(id, value ?? null, undefined);
      return;
    }
    const rpcError =
      error instanceof RpcError
        ? error
        : controller.signal.aborted
          ? RpcError.cancelled()
          : RpcError.internal(error instanceof Error ? error.message : String(error));
    if (!(error instanceof RpcError)) {
      this.warn({ kind: 'handler-error', message: `Handler for request ${JSON.stringify(id)} failed: ${rpcError.message}` });
    }
    this.reply(id, undefined, rpcError);
  }

  private reply(id: RequestId | null, result: unknown, error: RpcError | undefined): void {
    if (this.closedWith) return;
    const message: Message = error ? { jsonrpc: '2.0', id, error: error.toJSON() } : { jsonrpc: '2.0', id, result };
    this.send(message).catch(() => {
      // The agent is gone; the close path reports that.
    });
  }
}
