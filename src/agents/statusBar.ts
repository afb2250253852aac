import * as vscode from 'vscode';
import type { ManagedSession } from './managedSession';
import type { SessionManager } from './sessionManager';
import { ACTIVITY_ICONS } from './statusIcons';

/** The active session's agent and what it is doing; a click opens the panel. */
export function registerStatusBar(context: vscode.ExtensionContext, manager: SessionManager): void {
  const item = vscode.window.createStatusBarItem('howdah.status', vscode.StatusBarAlignment.Right, 100);
  item.name = vscode.l10n.t('Howdah');
  item.command = 'howdah.chat.focus';
  let sessionListener: vscode.Disposable | undefined;
  const render = () => {
    const active = manager.active;
    if (!active) {
      item.hide();
      return;
    }
    const { icon, status, background } = statusOf(active);
    item.text = `${icon} ${active.agentName}`;
    item.tooltip = vscode.l10n.t('Howdah: {0} — {1}', active.agentName, status);
    item.accessibilityInformation = { label: vscode.l10n.t('Howdah: {0}, {1}', active.agentName, status) };
    item.backgroundColor = background && new vscode.ThemeColor(background);
    item.show();
  };
  const follow = () => {
    sessionListener?.dispose();
    const active = manager.active;
    sessionListener = active?.session.state.onChange((change) => {
      if (change.type === 'turn' || change.type === 'tool-call') render();
    });
    render();
  };
  context.subscriptions.push(item, manager.onDidChange(follow), { dispose: () => sessionListener?.dispose() });
  follow();
}

/** What the item says about a session: a restored conversation is paused, not failed. */
function statusOf(active: ManagedSession): { icon: string; status: string; background?: string } {
  const state = active.lifecycle.state;
  if (state.kind === 'stopped' && (state.reason.kind === 'restored' || state.reason.kind === 'not-started')) {
    return { icon: ACTIVITY_ICONS.paused, status: vscode.l10n.t('resumes with your next message') };
  }
  if (active.status === 'exited') return { icon: ACTIVITY_ICONS.exited, status: vscode.l10n.t('error'), background: 'statusBarItem.errorBackground' };
  if (active.status !== 'ready') return { icon: ACTIVITY_ICONS.starting, status: vscode.l10n.t('starting') };
  if (active.session.waitingPermissions().length > 0) return { icon: ACTIVITY_ICONS.waiting, status: vscode.l10n.t('waiting for you'), background: 'statusBarItem.warningBackground' };
  if (active.session.state.turn !== 'idle') return { icon: ACTIVITY_ICONS.working, status: vscode.l10n.t('working') };
  return { icon: ACTIVITY_ICONS.idle, status: vscode.l10n.t('idle') };
}
