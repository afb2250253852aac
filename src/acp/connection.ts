import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import type { ClientCapabilities } from './capabilities';
import type { ClientHandlers } from './clientHandlers';
import { RpcError } from './errors';
import { JsonRpcConnection, type JsonRpcOptions, type ProtocolWarning, type RequestId } from './jsonRpc';
import { agentMethods, agentNotifications, clientMethodByName, clientMethods, type AgentMethodName, type ParamsOf, type ResultOf } from './methods';
import type { AgentCapabilities, InitializeResult } from './schema/agentMethods';
import type { ElicitationParams, PermissionOutcome, RequestPermissionParams } from './schema/clientMethods';
import { parseSessionNotification } from './schema/textChunk';
import * as l10n from '@vscode/l10n';

export const PROTOCOL_VERSION = 1;

export class ProtocolVersionError extends Error {
  constructor(readonly agentVersion: unknown) {
    super(l10n.t('The agent speaks ACP protocol version {0}; Howdah speaks version {1}.', String(agentVersion), PROTOCOL_VERSION));
    this.name = 'ProtocolVersionError';
  }
}

export interface ClientInfo {
  name: string;
  title?: string;
  version: string;
}

/**
 * ACP on top of JSON-RPC: typed calls to the agent from the method table, the agent's calls checked against the
 * capabilities we advertised and parsed before any handler sees them. It keeps no session state: each request's
 * handler gets the request's `AbortSignal` (aborted when the agent withdraws it or the connection closes), and the
 * session that owns a permission prompt answers it when its turn is cancelled.
 */
export class AcpConnection {
  readonly rpc: JsonRpcConnection;
  private agentCapabilities: AgentCapabilities | undefined;

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
      throw new RpcError(-32603, l10n.t("The agent's answer to {0} is invalid: {1}", entry.method, z.prettifyError(parsed.error)), raw);
    }
    return parsed.data as ResultOf<M>;
  }

  /** Sends `session/cancel`. The turn still ends with the agent's answer to `session/prompt`. */
  cancel(sessionId: string): Promise<void> {
    return this.rpc.notify(agentNotifications.cancel, { sessionId });
  }

  /** Removes the stream listeners and settles every pending request with `error`. */
  dispose(error: Error): void {
    this.rpc.dispose(error);
  }

  private handleNotification(method: string, params: unknown): void {
    const key = clientMethodByName.get(method);
    if (key === 'sessionUpdate') {
      const parsed = parseSessionNotification(params);
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
    if (key === 'createElicitation') this.checkElicitationMode((parsed.data as ElicitationParams).mode);
    const handler = this.handlers[key] as ((p: unknown, s: AbortSignal) => Promise<unknown>) | undefined;
    if (!handler) throw RpcError.methodNotFound(method);
    const result = await handler.call(this.handlers, parsed.data, signal);
    return result ?? {};
  }

  /** An answer the request does not allow (an option it did not offer) counts as `cancelled`; so does a failed handler. */
  private async askPermission(params: RequestPermissionParams, signal: AbortSignal): Promise<PermissionOutcome> {
    try {
      const outcome = await this.handlers.requestPermission(params, signal);
      const valid = outcome.outcome === 'cancelled' || params.options.some((o) => o.optionId === outcome.optionId);
      return valid ? outcome : { outcome: 'cancelled' };
    } catch {
      return { outcome: 'cancelled' };
    }
  }

  /** A mode we did not advertise (or do not know) is answered `-32602` (DIGEST §19), before any handler sees it. */
  private checkElicitationMode(mode: string): void {
    const advertised = this.capabilities.elicitation;
    if ((mode === 'form' && advertised?.form) || (mode === 'url' && advertised?.url)) return;
    throw RpcError.invalidParams(`Howdah did not advertise elicitation mode ${JSON.stringify(mode)}`);
  }

  private warn(warning: ProtocolWarning): void {
    this.handlers.warning?.(warning);
  }
}
