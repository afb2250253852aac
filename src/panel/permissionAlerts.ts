import * as vscode from 'vscode';
import { PerSession, type PanelSession, type PanelSessions } from './panelSessions';
import { revealInvisible } from '../shared/textSafety';

/**
 * Makes a waiting permission prompt or agent question (elicitation) noticeable when the chat is not in view: the
 * view's badge counts what waits in every session and the start area, and a notification appears for one the user
 * cannot see (panel hidden, or it belongs to another session): a permission's options as buttons, a question's
 * "Show in Chat". Each is announced once.
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
        if (change.type === 'permission-requested' || change.type === 'permission-settled' || change.type === 'elicitation-requested' || change.type === 'elicitation-settled') this.schedule();
      }),
    );
    // Questions asked while an agent starts live outside any session: the manager says when they change.
    this.managerChanges = sessions.onDidChange(() => sessions.startQuestions && this.schedule());
  }

  private readonly managerChanges: vscode.Disposable;

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
    // The agents' questions: in a session (its transcript shows them) or in the start area (shown above it).
    for (const managed of this.sessions.list()) {
      for (const record of managed.session.elicitations.pending) {
        count++;
        this.announce(`${managed.key}/q${record.key}`, waitingNow, managed.key, vscode.l10n.t('{0} asks you: “{1}”', managed.agentName, revealInvisible(record.message)));
      }
    }
    const start = this.sessions.startQuestions?.current;
    if (start) {
      count += this.sessions.startQuestions?.count ?? 1;
      this.announce(`start/q${start.record.key}`, waitingNow, undefined, vscode.l10n.t('{0} asks you: “{1}”', start.agentName, revealInvisible(start.record.message)));
    }
    // Forget answered prompts so the set does not grow for ever.
    for (const id of this.notified) if (!waitingNow.has(id)) this.notified.delete(id);
    if (this.view) this.view.badge = count > 0 ? { value: count, tooltip: count === 1 ? vscode.l10n.t('An agent waits for your answer') : vscode.l10n.t('{0} agent requests wait for your answer', count) } : undefined;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.watchers.dispose();
    this.managerChanges.dispose();
  }

  /**
   * A question the user cannot see (the panel hidden, or another session in front) gets one notification, whose only
   * button shows it: a form is filled in and a link agreed to where they can be read in full, never from a toast.
   */
  private announce(id: string, waitingNow: Set<string>, sessionKey: string | undefined, message: string): void {
    waitingNow.add(id);
    if (this.notified.has(id)) return;
    const seen = this.panelVisible() && (sessionKey === undefined || this.sessions.active?.key === sessionKey);
    if (seen) return;
    this.notified.add(id);
    this.notifications++;
    void vscode.window.showInformationMessage(message, vscode.l10n.t('Show in Chat')).then(async (choice) => {
      if (choice !== vscode.l10n.t('Show in Chat')) return;
      if (sessionKey) this.sessions.setActive(sessionKey);
      await vscode.commands.executeCommand('howdah.chat.focus');
    });
  }

  private async notify(managed: PanelSession, toolCallId: string): Promise<void> {
    const call = managed.session.state.toolCalls.get(toolCallId);
    const permission = call?.permission;
    if (!call || !permission) return;
    this.notifications++;
    const items: (vscode.MessageItem & { optionId?: string })[] = permission.options.map((o) => ({ title: revealInvisible(o.name), optionId: o.optionId }));
    const show: vscode.MessageItem & { optionId?: string } = { title: vscode.l10n.t('Show in Chat') };
    // The title is the agent's own words: quoted, with hidden characters made visible.
    const message = vscode.l10n.t('{0} asks for permission: “{1}”', managed.agentName, revealInvisible(call.title));
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
