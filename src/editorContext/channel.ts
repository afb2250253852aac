import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Disposable } from '../base/disposables';
import { toDisposable } from '../base/disposables';
import { ChannelRequest, lineSplitter, parseLine, type ChannelResponse } from './wire';

/** What answers the tool calls of one session: the tool's text, or isError with why it failed. */
export type ToolHandler = (tool: string, args: unknown) => Promise<{ text: string; isError?: boolean }>;

export const UNKNOWN_TOKEN = 'This editor-context server does not belong to an open Howdah session (the session was closed, or the token is wrong).';

/**
 * The extension host's end of the private channel to the editor-context servers: a Unix socket in a fresh temporary
 * folder only this user can enter (a named pipe with a random name on Windows), never a TCP port. A random token per
 * session says whose call it is; a session's registration going away (it closed) makes its token worthless at once.
 * Opened with the first registration, closed (socket and folder removed) on dispose. Plain Node: no `vscode`.
 */
export class EditorContextChannel implements Disposable {
  private server: net.Server | undefined;
  private listening: Promise<string> | undefined;
  private folder: string | undefined;
  private readonly handlers = new Map<string, ToolHandler>();
  private readonly sockets = new Set<net.Socket>();
  private disposed = false;

  /** The address the scripts connect to, once listening. */
  async address(): Promise<string> {
    if (this.disposed) throw new Error('The editor-context channel is closed');
    this.listening ??= this.listen();
    return this.listening;
  }

  /** A new token whose calls `handler` answers, until the returned registration is disposed. */
  register(handler: ToolHandler): { token: string; registration: Disposable } {
    const token = randomBytes(32).toString('base64url');
    this.handlers.set(token, handler);
    return { token, registration: toDisposable(() => this.handlers.delete(token)) };
  }

  /** How many sessions can call now: a leak check compares it before and after. */
  get registrations(): number {
    return this.handlers.size;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.handlers.clear();
    for (const socket of this.sockets) socket.destroy();
    this.server?.close();
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }

  private async listen(): Promise<string> {
    let address: string;
    if (process.platform === 'win32') {
      address = `\\\\.\\pipe\\howdah-editor-context-${randomBytes(16).toString('hex')}`;
    } else {
      // mkdtemp makes the folder 0700: no other user can reach the socket in it, whatever the umask says of the socket.
      this.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-ec-'));
      address = path.join(this.folder, `${randomBytes(6).toString('hex')}.sock`);
    }
    const server = net.createServer((socket) => this.serve(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // An error after listening (none is expected) must not become an uncaught one in the extension host; the
    // scripts' calls then fail on their side with "not available".
    server.on('error', () => undefined);
    // The extension host must be free to exit while the channel is open.
    server.unref();
    return address;
  }

  private serve(socket: net.Socket): void {
    if (this.disposed) return void socket.destroy();
    this.sockets.add(socket);
    socket.setEncoding('utf8');
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const send = (response: ChannelResponse) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(response)}\n`);
    };
    socket.on(
      'data',
      lineSplitter(
        (line) => {
          const request = parseLine(ChannelRequest, line);
          // Not one of ours: nothing to answer, and nothing more worth reading from this peer.
          if (!request) return void socket.destroy();
          const handler = this.handlers.get(request.token);
          if (!handler) return send({ id: request.id, error: UNKNOWN_TOKEN });
          // A handler that throws at once is answered like one that rejects.
          Promise.resolve()
            .then(() => handler(request.tool, request.args))
            .then(
              (result) => send({ id: request.id, text: result.text, isError: result.isError }),
              (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
            );
        },
        () => socket.destroy(),
      ),
    );
  }
}
