import { AgentProcess, type ExitInfo, type LaunchSpec } from './agentProcess';
import type { ClientCapabilities } from './capabilities';
import type { ClientHandlers } from './clientHandlers';
import { AcpConnection, type ClientInfo } from './connection';
import { ConnectionClosedError } from './errors';
import type { TraceEvent } from './jsonRpc';
import type { InitializeResult } from './schema/agentMethods';

export type AgentState = 'starting' | 'initializing' | 'ready' | 'stopping' | 'exited';

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
 * One running agent: its process, the ACP connection over its stdio and an explicit lifecycle. When the process
 * exits or its output closes, every pending request rejects with a `ConnectionClosedError` carrying the exit code or
 * signal and the tail of stderr.
 */
export class AgentConnection {
  readonly process: AgentProcess;
  readonly acp: AcpConnection;
  private stateValue: AgentState = 'starting';
  private initResult: InitializeResult | undefined;
  private readonly listeners = new Set<(state: AgentState) => void>();
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
        this.acp.rpc.close(error);
        this.setState('exited');
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

  get state(): AgentState {
    return this.stateValue;
  }

  get initializeResult(): InitializeResult | undefined {
    return this.initResult;
  }

  get name(): string {
    return this.options.name;
  }

  onStateChange(listener: (state: AgentState) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Initializes the connection; on any failure the process is stopped. */
  async start(): Promise<InitializeResult> {
    this.setState('initializing');
    try {
      // If the agent dies first, the pending initialize rejects with the exit details.
      this.initResult = await this.acp.initialize(this.options.clientInfo);
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.setState('ready');
    return this.initResult;
  }

  /** Close stdin, wait up to 2 s, kill the process group. Every pending request settles. */
  async stop(): Promise<void> {
    if (this.stateValue === 'exited') {
      await this.process.stop();
      return;
    }
    this.setState('stopping');
    await this.process.stop();
    await this.closed;
  }

  private closedError(info: ExitInfo): ConnectionClosedError {
    const how = howItEnded(info);
    const tail = this.process.stderrTail(20);
    const stopping = this.stateValue === 'stopping';
    const message = stopping
      ? `${this.options.name} was stopped`
      : `${this.options.name} ${how}${tail.length ? `. Last output:\n${tail.join('\n')}` : ''}`;
    return new ConnectionClosedError(message, info.code, info.signal, this.process.stderrTail());
  }

  private setState(state: AgentState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    for (const listener of this.listeners) listener(state);
  }
}

/** How an agent's process ended, after its name: "exited with code 1", "was killed by SIGKILL", "could not be started". */
export function howItEnded(info: ExitInfo): string {
  return info.signal ? `was killed by ${info.signal}` : info.code === null ? 'could not be started' : `exited with code ${info.code}`;
}
