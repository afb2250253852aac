import * as vscode from 'vscode';
import type { SessionManager } from './sessionManager';

/**
 * Says when a session's agent crashed and its restart policy left the decision to the user: an error notification
 * with Restart and Show Log. (An automatic restart needs no notice: the transcript says it.) Only listens.
 */
export function showCrashNotices(manager: SessionManager): vscode.Disposable {
  return manager.onDidCrash(({ managed, crash, decision }) => {
    if (decision.action !== 'ask') return;
    void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: {0} stopped: {1}', managed.agentName, crash.message.split('\n')[0]), vscode.l10n.t('Restart'), vscode.l10n.t('Show Log')).then((choice) => {
      if (choice === vscode.l10n.t('Restart')) void manager.restart(managed.key);
      if (choice === vscode.l10n.t('Show Log')) manager.probes.showLog(managed.key);
    });
  });
}
