import * as vscode from 'vscode';
import type { Managed } from './managedSession';
import { carryOutSignIn, signInChoices, type SignInPrompts, type SignInOutcome } from './signIn';

/** Whether the session's agent runs and advertised `agentCapabilities.auth.logout` (DIGEST §6). */
export function canSignOut(managed: Managed | undefined): boolean {
  return !!managed && (managed.lifecycle.state.kind === 'ready' || managed.lifecycle.state.kind === 'prompting') && !!managed.connection?.acp.supports('logout');
}

/**
 * "Howdah: Sign Out": `logout` on the session's agent, then the panel shows the sign-in question (the agent's ways
 * to sign in), since the agent now needs one for new sessions and may for this one. Signing in again authenticates
 * on the same connection, or — a terminal login — is followed by `restart`. Resolves to how the sign-in ended
 * (`cancelled` when the user left it for later).
 */
export async function signOut(managed: Managed, signIns: SignInPrompts, restart: () => Promise<void>): Promise<SignInOutcome> {
  const started = managed.current;
  const acp = started?.connection.acp;
  if (!started || !acp || !canSignOut(managed)) throw new Error(vscode.l10n.t('{0} cannot sign out (it does not offer logout, or it is not running).', managed.agentName));
  await acp.call('logout', {});
  managed.log.info(vscode.l10n.t('Signed out of {0}.', managed.agentName));
  const methods = started.init.authMethods;
  const answer = await signIns.ask({
    agentId: managed.agentId,
    agentName: managed.agentName,
    message: vscode.l10n.t('You signed out of {0}. Sign in again to go on working with it.', managed.agentName),
    choices: signInChoices(managed.agent, methods, true),
  });
  if (!answer) return 'cancelled';
  const outcome = await carryOutSignIn(answer, managed.agent, started.spec, methods, async (params) => {
    await acp.call('authenticate', params);
  });
  if (outcome === 'restart') await restart();
  return outcome;
}

/** Keeps the `howdah.canSignOut` context key (the command's enablement) in step with the session in front. */
export function trackCanSignOut(onDidChange: vscode.Event<void>, can: () => boolean): vscode.Disposable {
  let shown: boolean | undefined;
  const update = () => {
    const now = can();
    if (now !== shown) void vscode.commands.executeCommand('setContext', 'howdah.canSignOut', (shown = now));
  };
  update();
  return onDidChange(update);
}
