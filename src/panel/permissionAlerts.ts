import * as vscode from 'vscode';
import { PerSession, type PanelSession, type PanelSessions } from './panelSessions';
import { revealInvisible } from '../shared/textSafety';

/**
 * Makes a waiting permission prompt noticeable when the chat is not in view: the view's badge counts the prompts
 * waiting in every session, and a notification with the options as buttons appears for a prompt the user cannot see
 * (panel hidden, or the prompt belongs to another session). Each prompt is announced once.
 */
export class PermissionAlerts implements vscode.Disposable {
  private readonly watchers: PerSession<{ dispose(): void }>;
  private readonly notified = new Set<string>();
  private view: vscode.WebviewView | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;
  /** Notifications shown, for tests. */
  notifications = 0;

  constructor(
    private readonly sessions: PanelSessions,
    private readonly panelVisible: () => boolean,
  ) {
    this.watchers = new PerSession(sessions, (managed) =>
      managed.session.state.onChange((change) => {
        if (change.type === 'permission-requested' || change.type === 'permission-settled') this.schedule();
      }),
    );
  }

  /** The view, once VS Code has resolved it (the badge lives there). */
  setView(view: vscode.WebviewView | undefined): void {
    this.view = view;
    this.update();
  }

  /** Coalesced: several tool-call changes in a row produce one update. */
  schedule(): void {
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      this.update();
    }, 0);
  }

  update(): void {
    let count = 0;
    const waitingNow = new Set<string>();
    for (const managed of this.sessions.list()) {
      for (const call of managed.session.waitingPermissions()) {
        count++;
        const id = `${managed.key}/${call.toolCallId}/${call.permission?.requestId}`;
        waitingNow.add(id);
        if (this.notified.has(id)) continue;
        const seen = this.panelVisible() && this.sessions.active?.key === managed.key;
        if (!seen) {
          this.notified.add(id);
          void this.notify(managed, call.toolCallId);
        }
      }
    }
    // Forget answered prompts so the set does not grow for ever.
    for (const id of this.notified) if (!waitingNow.has(id)) this.notified.delete(id);
    if (this.view) this.view.badge = count > 0 ? { value: count, tooltip: count === 1 ? 'An agent asks for permission' : `${count} permission requests wait` } : undefined;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.watchers.dispose();
  }

  private async notify(managed: PanelSession, toolCallId: string): Promise<void> {
    const call = managed.session.state.toolCalls.get(toolCallId);
    const permission = call?.permission;
    if (!call || !permission) return;
    this.notifications++;
    const items: (vscode.MessageItem & { optionId?: string })[] = permission.options.map((o) => ({ title: revealInvisible(o.name), optionId: o.optionId }));
    const show: vscode.MessageItem & { optionId?: string } = { title: 'Show in Chat' };
    // The title is the agent's own words: quoted, with hidden characters made visible.
    const message = `${managed.agentName} asks for permission: “${revealInvisible(call.title)}”`;
    const choice = await vscode.window.showInformationMessage(message, ...items, show);
    if (!choice) return;
    if (choice === show) {
      this.sessions.setActive(managed.key);
      await vscode.commands.executeCommand('howdah.chat.focus');
      return;
    }
    if (choice.optionId !== undefined) managed.session.answerPermission(toolCallId, choice.optionId);
  }
}
