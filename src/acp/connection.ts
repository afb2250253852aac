import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import type { ClientCapabilities } from './capabilities';
import type { ClientHandlers } from './clientHandlers';
import { RpcError } from './errors';
import { JsonRpcConnection, type JsonRpcOptions, type ProtocolWarning, type RequestId } from './jsonRpc';
import { agentMethods, agentNotifications, clientMethodByName, clientMethods, type AgentMethodName, type ParamsOf, type ResultOf } from './methods';
import type { AgentCapabilities, InitializeResult } from './schema/agentMethods';
import type { PermissionOutcome, RequestPermissionParams } from './schema/clientMethods';

export const PROTOCOL_VERSION = 1;

export class ProtocolVersionError extends Error {
  constructor(readonly agentVersion: unknown) {
    super(`The agent speaks ACP protocol version ${String(agentVersion)}; Howdah speaks version ${PROTOCOL_VERSION}.`);
    this.name = 'ProtocolVersionError';
  }
}

export interface ClientInfo {
  name: string;
  title?: string;
  version: string;
}

interface WaitingPermission {
  settle(outcome: PermissionOutcome): void;
}

/**
 * ACP on top of JSON-RPC: typed calls to the agent from the method table, the agent's calls checked against the
 * capabilities we advertised and parsed before any handler sees them, and the permission bookkeeping that lets a
 * cancelled turn answer its own prompts.
 */
export class AcpConnection {
  readonly rpc: JsonRpcConnection;
  private agentCapabilities: AgentCapabilities | undefined;
  private readonly waitingPermissions = new Map<string, Set<WaitingPermission>>();

  constructor(
    input: Readable,
    output: Writable,
    private readonly capabilities: ClientCapabilities,
    private readonly handlers: ClientHandlers,
    options: JsonRpcOptions = {},
  ) {
    this.rpc = new JsonRpcConnection(
      input,
      output,
      {
        request: (method, params, context) => this.handleRequest(method, params, context),
        notification: (method, params) => this.handleNotification(method, params),
      },
      {
        ...options,
        warn: (warning) => {
          options.warn?.(warning);
          handlers.warning?.(warning);
        },
      },
    );
  }

  /** `initialize`, refusing an agent that answers another protocol version. */
  async initialize(clientInfo: ClientInfo): Promise<InitializeResult> {
    const result = await this.call('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: this.capabilities,
      clientInfo,
    });
    if (result.protocolVersion !== PROTOCOL_VERSION) throw new ProtocolVersionError(result.protocolVersion);
    this.agentCapabilities = result.agentCapabilities;
    return result;
  }

  get agent(): AgentCapabilities | undefined {
    return this.agentCapabilities;
  }

  /** Whether the agent advertised `method` (methods without a gate always are). */
  supports(method: AgentMethodName): boolean {
    const entry = agentMethods[method] as { available?: (caps: AgentCapabilities) => boolean };
    return !entry.available || (!!this.agentCapabilities && entry.available(this.agentCapabilities));
  }

  /** Calls the agent; the result is parsed with the method's schema. */
  async call<M extends AgentMethodName>(method: M, params: ParamsOf<M>, signal?: AbortSignal): Promise<ResultOf<M>> {
    const entry = agentMethods[method];
    const raw = await this.rpc.request(entry.method, params, signal);
    const parsed = (entry.result as z.ZodType).safeParse(raw);
    if (!parsed.success) {
      throw new RpcError(-32603, `The agent's answer to ${entry.method} is invalid: ${z.prettifyError(parsed.error)}`, raw);
    }
    return parsed.data as ResultOf<M>;
  }

  /**
   * Cancels the session's turn: sends `session/cancel` and answers every permission request of the session still
   * waiting on the user with `cancelled` (a later answer from the UI is dropped). The turn itself still ends with the
   * agent's answer to `session/prompt`.
   */
  async cancel(sessionId: string): Promise<void> {
    const sent = this.rpc.notify(agentNotifications.cancel, { sessionId });
    const waiting = this.waitingPermissions.get(sessionId);
    if (waiting) for (const w of [...waiting]) w.settle({ outcome: 'cancelled' });
    await sent;
  }

  /** Permission requests of a session still waiting for an answer. */
  waitingPermissionCount(sessionId: string): number {
    return this.waitingPermissions.get(sessionId)?.size ?? 0;
  }

  private handleNotification(method: string, params: unknown): void {
    const key = clientMethodByName.get(method);
    if (key === 'sessionUpdate') {
      const parsed = clientMethods.sessionUpdate.params.safeParse(params);
      if (parsed.success) this.handlers.sessionUpdate(parsed.data);
      else this.warn({ kind: 'invalid-message', message: `Invalid session/update: ${z.prettifyError(parsed.error)}` });
    } else if (key === 'completeElicitation' && clientMethods.completeElicitation.advertised(this.capabilities)) {
      const parsed = clientMethods.completeElicitation.params.safeParse(params);
      if (parsed.success) this.handlers.completeElicitation?.(parsed.data);
    } else if (method.startsWith('_')) {
      this.handlers.extNotification?.(method, params);
    } else {
      this.warn({ kind: 'invalid-message', message: `Ignored notification ${method}` });
    }
  }

  private async handleRequest(method: string, params: unknown, { signal }: { id: RequestId; signal: AbortSignal }): Promise<unknown> {
    const key = clientMethodByName.get(method);
    if (!key) {
      if (method.startsWith('_') && this.handlers.extRequest) return this.handlers.extRequest(method, params, signal);
      throw RpcError.methodNotFound(method);
    }
    const entry = clientMethods[key];
    if ('notification' in entry || !entry.advertised(this.capabilities)) {
      this.warn({ kind: 'invalid-message', message: `The agent called ${method}, which Howdah did not advertise` });
      throw RpcError.methodNotFound(method);
    }
    const parsed = (entry.params as z.ZodType).safeParse(params);
    if (!parsed.success) throw RpcError.invalidParams(`Invalid params for ${method}: ${z.prettifyError(parsed.error)}`);
    if (key === 'requestPermission') return { outcome: await this.askPermission(parsed.data as RequestPermissionParams, signal) };
    const handler = this.handlers[key] as ((p: unknown, s: AbortSignal) => Promise<unknown>) | undefined;
    if (!handler) throw RpcError.methodNotFound(method);
    const result = await handler.call(this.handlers, parsed.data, signal);
    return result ?? {};
  }

  private askPermission(params: RequestPermissionParams, signal: AbortSignal): Promise<PermissionOutcome> {
    // With no options the only valid answer is `cancelled` (DIGEST §12).
    if (params.options.length === 0) return Promise.resolve({ outcome: 'cancelled' });
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    let set = this.waitingPermissions.get(params.sessionId);
    if (!set) this.waitingPermissions.set(params.sessionId, (set = new Set()));
    const waiting = set;
    return new Promise<PermissionOutcome>((resolve) => {
      let done = false;
      const entry: WaitingPermission = {
        settle: (outcome) => {
          if (done) return;
          done = true;
          waiting.delete(entry);
          if (waiting.size === 0) this.waitingPermissions.delete(params.sessionId);
          signal.removeEventListener('abort', abort);
          // Tells the UI the prompt is over when it was answered by someone else (cancel, the agent, a crash).
          controller.abort();
          resolve(outcome);
        },
      };
      waiting.add(entry);
      // The agent withdrew the request ($/cancel_request) or the connection closed: answer cancelled.
      signal.addEventListener('abort', () => entry.settle({ outcome: 'cancelled' }), { once: true });
      this.handlers.requestPermission(params, controller.signal).then(
        (outcome) => {
          const valid = outcome.outcome === 'cancelled' || params.options.some((o) => o.optionId === outcome.optionId);
          entry.settle(valid ? outcome : { outcome: 'cancelled' });
        },
        () => entry.settle({ outcome: 'cancelled' }),
      );
    });
  }

  private warn(warning: ProtocolWarning): void {
    this.handlers.warning?.(warning);
  }
}
