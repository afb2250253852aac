import * as vscode from 'vscode';
import { registerChatCommands } from './chatCommands';
import { ChatIntents } from './chatIntents';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { WorkspaceFileIndex } from './fileIndex';
import type { PanelSessions } from './panelSessions';
import type { TerminalTail } from './terminalTails';
import { PermissionAlerts } from './permissionAlerts';
import { ToolDiffViewer } from './toolDiff';

/** What tests can observe of the panel without scraping the webview. */
export interface ChatPanelProbe {
  readonly postedMessages: number;
  readonly isVisible: boolean;
  readonly permissionNotifications: number;
}

export interface ChatPanelOptions {
  /** Output of a terminal the client runs (terminal/create), by id: shown in tool cards as a live tail. */
  terminalOutput?(terminalId: string): TerminalTail | undefined;
  /** Fires with a terminal's id when its output or exit status changes, so its tool cards update live. */
  onTerminalOutput?: vscode.Event<string>;
}

/**
 * The chat panel: the `howdah.chat` webview view, its intents, `@` file search, permission badge and notifications,
 * and the Add Selection / Add File commands. Everything is owned by `context`.
 */
export function registerChatPanel(context: vscode.ExtensionContext, sessions: PanelSessions, options: ChatPanelOptions = {}): ChatPanelProbe {
  const output = vscode.window.createOutputChannel('Howdah Chat', { log: true });
  const provider = new ChatViewProvider(context.extensionUri, sessions, (message) => output.warn(message), (id) => options.terminalOutput?.(id), options.onTerminalOutput);
  const files = new WorkspaceFileIndex();
  const diffs = new ToolDiffViewer(sessions);
  const alerts = new PermissionAlerts(sessions, () => provider.isVisible);
  const intents = new ChatIntents({ sessions, files, diffs, post: (m) => provider.post(m) });

  provider.onIntent = (message) => {
    if (message.type === 'ready') return;
    intents.handle(message).catch((error: unknown) => output.error(`${message.type} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
  };
  provider.onViewChanged = (view) => alerts.setView(view);

  context.subscriptions.push(
    output,
    provider,
    files,
    diffs,
    alerts,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    registerChatCommands((attachments) => {
      provider.attach(attachments);
      provider.focusPrompt();
    }),
  );
  return {
    get postedMessages() {
      return provider.postedMessages;
    },
    get isVisible() {
      return provider.isVisible;
    },
    get permissionNotifications() {
      return alerts.notifications;
    },
  };
}
