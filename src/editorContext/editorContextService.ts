import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '../acp/schema/agentMethods';
import type { Disposable } from '../base/disposables';
import { AgentFiles } from '../workspace/agentFiles';
import { EditorContextChannel } from './channel';
import { editorToolHandler } from './toolHandler';
import { VscodeEditor } from './vscodeEditor';
import { ENV_SOCKET, ENV_TOKEN } from './wire';

/** The name agents know the server by: Claude Code calls its tools `mcp__howdah__read_file`, and so on. */
export const SERVER_NAME = 'howdah';

/** One session's editor-context server: the entry to pass on session/new, load and resume, and its token's life. */
export interface SessionEditorContext {
  readonly server: McpServer;
  /** Disposed with the session's scope: from then on the token is refused. */
  readonly registration: Disposable;
}

/**
 * The editor-context MCP server for Howdah's sessions (issue 16): most agents read files from disk and never see
 * unsaved editor text, but every one starts the stdio MCP servers it is given. Each session gets an entry that runs
 * the bundled script with the extension host's own Node, and a token for the private channel the script calls back
 * on; the tools answer from VS Code, inside the session's sandbox.
 */
export class EditorContextService implements vscode.Disposable {
  private readonly channel = new EditorContextChannel();

  constructor(private readonly script: string) {}

  /** The `howdah.editorContext` setting, read at each start (a restart after turning it off passes no server). */
  get enabled(): boolean {
    return vscode.workspace.getConfiguration('howdah').get<boolean>('editorContext', true);
  }

  /**
   * A server for one session whose file access is `files` (the edits layer's, once the session has one); until
   * then, and without the edits layer, plain access to `roots` (the session's cwd and the workspace folders).
   */
  async forSession(files: () => AgentFiles | undefined, roots: readonly string[]): Promise<SessionEditorContext> {
    const fallback = new AgentFiles(roots);
    const current = () => files() ?? fallback;
    const address = await this.channel.address();
    const { token, registration } = this.channel.register(editorToolHandler(() => current().sandbox, new VscodeEditor(current)));
    const env = { ELECTRON_RUN_AS_NODE: '1', [ENV_SOCKET]: address, [ENV_TOKEN]: token };
    return {
      server: { name: SERVER_NAME, command: process.execPath, args: [this.script], env: Object.entries(env).map(([name, value]) => ({ name, value })) },
      registration,
    };
  }

  /** Sessions whose tokens still answer. */
  get registrations(): number {
    return this.channel.registrations;
  }

  dispose(): void {
    this.channel.dispose();
  }
}

/** The service, closed with the extension; the script is the one esbuild bundles next to the extension. */
export function registerEditorContext(context: vscode.ExtensionContext): EditorContextService {
  const service = new EditorContextService(path.join(context.extensionPath, 'out', 'editorContextServer.js'));
  context.subscriptions.push(service);
  return service;
}
