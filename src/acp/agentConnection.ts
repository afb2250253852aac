import { AgentProcess, type ExitInfo, type LaunchSpec } from './agentProcess';
import type { ClientCapabilities } from './capabilities';
import type { ClientHandlers } from './clientHandlers';
import { AcpConnection, type ClientInfo } from './connection';
import { ConnectionClosedError, type StopCause } from './errors';
import type { TraceEvent } from './jsonRpc';
import type { InitializeResult } from './schema/agentMethods';
import * as l10n from '@vscode/l10n';

export interface AgentConnectionOptions {
  /** For messages: the agent's display name. */
  name: string;
  capabilities: ClientCapabilities;
  clientInfo: ClientInfo;
  handlers: ClientHandlers;
  /** Each stderr line of the agent. */
  stderr?: (line: string) => void;
  trace?: (event: TraceEvent) => void;
  maxLineBytes?: number;
}

const STDOUT_CLOSED_GRACE_MS = 2000;

/**
 * One running agent: its process and the ACP connection over its stdio. When the process exits or its output closes,
 * every pending request rejects with a `ConnectionClosedError` carrying the exit code or signal, the tail of stderr
 * and, when Howdah stopped it, why. The session's life (starting, ready, stopped, …) is not kept here but by its
 * owner (src/session/lifecycle.ts); this object only knows whether it was asked to stop.
 */
export class AgentConnection {
  readonly process: AgentProcess;
  readonly acp: AcpConnection;
  private initResult: InitializeResult | undefined;
  private stopCause: StopCause | undefined;
  private closedValue = false;
  /** Settles once the connection is closed, with the reason. */
  readonly closed: Promise<ConnectionClosedError>;

  constructor(spec: LaunchSpec, private readonly options: AgentConnectionOptions) {
    this.process = new AgentProcess(spec, (line) => options.stderr?.(line));
    this.acp = new AcpConnection(this.process.child.stdout, this.process.child.stdin, options.capabilities, options.handlers, {
      trace: options.trace,
      maxLineBytes: options.maxLineBytes,
    });
    this.closed = new Promise((resolve) => {
      const close = (info: ExitInfo) => {
        const error = this.closedError(info);
        this.closedValue = true;
        // Settles every pending request and lets go of the process's streams.
        this.acp.dispose(error);
        resolve(error);
      };
      void this.process.exited.then(close);
      // An agent that closes stdout but lives on can no longer answer: close after a grace period.
      this.process.child.stdout.on('end', () => {
        setTimeout(() => {
          if (!this.process.hasExited) {
            this.process.kill('SIGKILL');
          }
        }, STDOUT_CLOSED_GRACE_MS).unref();
      });
    });
  }

  /** The process is gone and every request has settled. */
  get isClosed(): boolean {
    return this.closedValue;
  }

  get initializeResult(): InitializeResult | undefined {
    return this.initResult;
  }

  get name(): string {
    return this.options.name;
  }

  /** Initializes the connection; on any failure the process is stopped. */
  async start(): Promise<InitializeResult> {
    try {
      // If the agent dies first, the pending initialize rejects with the exit details.
      this.initResult = await this.acp.initialize(this.options.clientInfo);
    } catch (error) {
      await this.stop('start-failed');
      throw error;
    }
    return this.initResult;
  }

  /**
   * Close stdin, wait up to 2 s, kill the process group. Every pending request settles. `cause` is what `closed`
   * reports (the first one given wins: a restart that stops an agent already being stopped by the user stays "user").
   */
  async stop(cause: StopCause = 'user'): Promise<void> {
    if (!this.closedValue) this.stopCause ??= cause;
    await this.process.stop();
    await this.closed;
  }

  private closedError(info: ExitInfo): ConnectionClosedError {
    const how = howItEnded(info);
    const tail = this.process.stderrTail(20);
    // The message is what a notification or the panel shows when the agent is gone.
    const message = this.stopCause
      ? l10n.t('{0} was stopped', this.options.name)
      : tail.length
        ? l10n.t('{0} {1}. Last output:\n{2}', this.options.name, how, tail.join('\n'))
        : l10n.t('{0} {1}', this.options.name, how);
    return new ConnectionClosedError(message, info.code, info.signal, this.process.stderrTail(), this.stopCause);
  }
}

/** How an agent's process ended, after its name: "exited with code 1", "was killed by SIGKILL", "could not be started". */
export function howItEnded(info: ExitInfo): string {
  return info.signal ? l10n.t('was killed by {0}', info.signal) : info.code === null ? l10n.t('could not be started') : l10n.t('exited with code {0}', info.code);
}
