import * as vscode from 'vscode';
import type { ReviewSender } from '../edits/reviewComments';
import type { SessionManager } from './sessionManager';

/**
 * Where review comments go: the conversation in front, as its next prompt. Not while its agent works (a review
 * mixed into a running turn would be answered half-way); the user is told and the comments stay unsent.
 */
export function reviewSender(manager: SessionManager): ReviewSender {
  return async (blocks) => {
    const active = manager.active;
    if (!active) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: open a conversation first: review comments go to its agent.'));
      return undefined;
    }
    if (active.session.state.turn !== 'idle') {
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0} is working. Send the review comments when the turn ends, or stop it first.', active.agentName));
      return undefined;
    }
    // The turn's errors are said in the transcript; the comments went either way.
    void manager.prompt(active.key, blocks).catch(() => undefined);
    void vscode.commands.executeCommand('howdah.chat.focus');
    return active.agentName;
  };
}
