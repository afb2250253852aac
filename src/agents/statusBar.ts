import * as vscode from 'vscode';
import type { SessionManager } from './sessionManager';

/** The active session's agent and what it is doing; a click opens the panel. */
export function registerStatusBar(context: vscode.ExtensionContext, manager: SessionManager): void {
  const item = vscode.window.createStatusBarItem('howdah.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Howdah';
  item.command = 'howdah.chat.focus';
  let sessionListener: vscode.Disposable | undefined;
  const render = () => {
    const active = manager.active;
    if (!active) {
      item.hide();
      return;
    }
    const state = active.session.state;
    const waiting = active.session.waitingPermissions().length > 0;
    const [icon, status] =
      active.status === 'exited'
        ? ['$(error)', 'error']
        : active.status !== 'ready'
          ? ['$(loading~spin)', 'starting']
          : waiting
            ? ['$(bell-dot)', 'waiting for you']
            : state.turn !== 'idle'
              ? ['$(sync~spin)', 'working']
              : ['$(hubot)', 'idle'];
    item.text = `${icon} ${active.agentName}`;
    item.tooltip = `Howdah: ${active.agentName} — ${status}`;
    item.accessibilityInformation = { label: `Howdah: ${active.agentName}, ${status}` };
    item.backgroundColor = waiting ? new vscode.ThemeColor('statusBarItem.warningBackground') : active.status === 'exited' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
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
