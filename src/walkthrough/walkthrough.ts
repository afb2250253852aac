import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewMilestone } from '../edits/reviewMilestones';
import { isWalkthroughStep, opensOnThisActivation, WALKTHROUGH_ID, type WalkthroughStep } from './walkthroughSteps';

const DONE_KEY = 'howdah.walkthrough.done';
/**
 * Opened once: a marker file in global storage, written before it opens. Not global state: a window reloaded right
 * after it opened (as a new user does) was seen to open it again in code-server, the state not yet written back.
 */
const OPENED_MARKER = 'walkthrough-opened';

interface Sessions {
  readonly onDidChange: vscode.Event<void>;
  list(): readonly { readonly status: string }[];
}

/**
 * The "Get started with Howdah" walkthrough: each step's context key is set when the person has really done it (an
 * agent session is ready, so it was chosen and signed in; a change waits for review; a hunk was decided; a checkpoint
 * restored), kept in global state so it stays done in every window; opened once after install and by
 * **Howdah: Get Started** (the chat view's `…` menu).
 */
export function registerWalkthrough(context: vscode.ExtensionContext, sessions: Sessions, milestones: vscode.Event<ReviewMilestone>): void {
  const done = new Set<WalkthroughStep>(context.globalState.get<string[]>(DONE_KEY, []).filter(isWalkthroughStep));
  const setKey = (step: WalkthroughStep) => vscode.commands.executeCommand('setContext', `howdah.walkthrough.${step}`, true);
  for (const step of done) void setKey(step);
  const reach = (step: WalkthroughStep) => {
    if (done.has(step)) return;
    done.add(step);
    void setKey(step);
    void context.globalState.update(DONE_KEY, [...done]);
  };
  const open = () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  context.subscriptions.push(
    sessions.onDidChange(() => !done.has('agentStarted') && sessions.list().some((s) => s.status === 'ready') && reach('agentStarted')),
    milestones(reach),
    vscode.commands.registerCommand('howdah.openWalkthrough', open),
  );
  const openOnInstall = vscode.workspace.getConfiguration('workbench').get<boolean>('welcomePage.walkthroughs.openOnInstall');
  const marker = path.join(context.globalStorageUri.fsPath, OPENED_MARKER);
  if (opensOnThisActivation(fs.existsSync(marker), openOnInstall, context.extensionMode === vscode.ExtensionMode.Test)) {
    try {
      fs.mkdirSync(path.dirname(marker), { recursive: true });
      fs.writeFileSync(marker, new Date().toISOString());
    } catch {
      return; // Not opened when it could not be recorded: it would open in every window.
    }
    void open();
  }
}
