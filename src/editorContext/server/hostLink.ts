import * as net from 'node:net';
import { ChannelResponse, lineSplitter, parseLine } from '../wire';

/** How long a tool call may wait for the host; a language server that never answers must not hang the agent. */
export const CALL_TIMEOUT_MS = 60_000;

export interface ToolText {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * The script's end of the channel to the extension host: one connection, opened on the first call and again after
 * it closed. Every call settles: with the host's answer, or an error text when the host is gone (the window closed,
 * the socket removed), the connection drops, or no answer comes within `timeoutMs`.
 */
export class HostLink {
  private socket: net.Socket | undefined;
  private connecting: Promise<net.Socket> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (answer: ToolText) => void>();

  constructor(
    private readonly address: string,
    private readonly token: string,
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {}

  async call(tool: string, args: unknown): Promise<ToolText> {
    let socket: net.Socket;
    try {
      socket = await this.connect();
    } catch (error) {
      return unavailable(`it cannot be reached (${(error as Error).message})`);
    }
    const id = this.nextId++;
    return new Promise<ToolText>((resolve) => {
      const timer = setTimeout(() => settle(unavailable(`it did not answer within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
      const settle = (answer: ToolText) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(answer);
      };
      this.pending.set(id, settle);
      socket.write(`${JSON.stringify({ id, token: this.token, tool, args })}\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private connect(): Promise<net.Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const socket = net.createConnection(this.address);
      socket.setEncoding('utf8');
      socket.once('connect', () => {
        this.socket = socket;
        resolve(socket);
      });
      socket.on('error', (error) => reject(error));
      socket.on('data', lineSplitter((line) => this.answer(line), () => socket.destroy()));
      socket.on('close', () => {
        if (this.socket === socket) this.socket = undefined;
        for (const settle of [...this.pending.values()]) settle(unavailable('the connection to it closed'));
      });
      // The connection must not keep the script alive once the agent has closed its stdin.
      socket.unref();
    }).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private answer(line: string): void {
    const response = parseLine(ChannelResponse, line);
    if (!response) return;
    const settle = this.pending.get(response.id);
    if (!settle) return;
    settle('error' in response ? { text: response.error, isError: true } : { text: response.text, isError: response.isError ?? false });
  }
}

function unavailable(why: string): ToolText {
  return { text: `Howdah's editor context is not available: ${why}. The VS Code window or the Howdah session may have closed; read the file from disk instead.`, isError: true };
}
