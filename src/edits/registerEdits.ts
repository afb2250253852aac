import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentChanges } from './agentChanges';
import { AttachedSessions } from './attachedSessions';
import { Checkpoints } from './checkpoints';
import { BASELINE_SCHEME } from './diffViews';
import { registerEditCommands } from './editCommands';
import { EditsLayer } from './editsLayer';
import { EditsLog } from './editsLog';
import { EditsStorage } from './editsStorage';
import { FollowAgent } from './followAgent';
import { HeldWrites } from './heldWrites';
import { PendingChanges } from './pendingChanges';
import { PENDING_VIEW_ID, PendingView } from './pendingView';
import { ProposalCounts } from './proposalCounts';
import { PROPOSAL_SCHEME } from './proposals';
import { Questions } from './questions';
import { ReviewActions } from './reviewActions';
import { ReviewMilestones } from './reviewMilestones';
import { ROUND_SCHEME, ReviewRounds } from './reviewRounds';
import { TurnSnapshots } from './turnSnapshots';

/**
 * Builds the edits layer, each part after what it is built on: its state from the extension's storage, the review
 * model, the tracker and the writes, the editors, the commands, the list view. Everything is owned by `context`, in an
 * order that matters on shutdown: the state is written last, synchronously, with what the others left in it.
 */
export function registerEdits(context: vscode.ExtensionContext): EditsLayer {
  const dir = path.join(context.storageUri?.fsPath ?? path.join(context.globalStorageUri.fsPath, 'no-workspace'), 'edits');
  const log = new EditsLog();
  const storage = new EditsStorage(dir, log.error);
  const pending = new PendingChanges(storage.state, storage.blobs, storage.persist);
  const questions = new Questions();
  const snapshots = new TurnSnapshots(path.join(dir, 'snapshots'), log.note);
  const sessions = new AttachedSessions();
  const { proposals, tracker, writes, views } = new AgentChanges({ storage, pending, questions, snapshots, sessions, log: log.note, follow: new FollowAgent().reveal });
  const actions = new ReviewActions(pending, storage.blobs, tracker, () => sessions.sandbox(), questions);
  const milestones = new ReviewMilestones();
  const checkpoints = new Checkpoints(storage.state, pending, tracker, actions, questions, () => milestones.reach('checkpointRestored'));
  const rounds = new ReviewRounds(pending);

  context.subscriptions.push(
    log,
    milestones,
    pending.onDidChange(() => pending.paths().length > 0 && milestones.reach('changeToReview')),
    pending,
    tracker,
    snapshots,
    // Before the proposals: disposing them cancels every one, which the held writes must not record as decided (the
    // state saved last would lose the writes still waiting for the user).
    new HeldWrites(proposals, storage),
    new ProposalCounts(proposals, pending),
    proposals,
    views,
    vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, views),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.languages.registerCodeLensProvider([{ scheme: 'file' }, { scheme: PROPOSAL_SCHEME }], views),
    rounds,
    vscode.workspace.registerTextDocumentContentProvider(ROUND_SCHEME, rounds),
    ...(contributesView(context, PENDING_VIEW_ID) ? [new PendingView(pending, rounds)] : []),
    storage,
  );
  const { openChanges } = registerEditCommands(context, { pending, proposals, actions, views, checkpoints, questions, milestones, log: () => log.recent(), backgroundSnapshots: () => ({ prepared: snapshots.prepared, preparing: snapshots.waitingToPrepare }), save: () => storage.save().then(() => storage.stateFile) });
  offerDiffCodeLensOnce(context, pending);

  // Reviews from before the reload: their files may have changed since (the user, git); drop what no longer differs.
  void pending.refreshAll().then(() => storage.blobs.collect(storage.state.referencedBlobs()));

  context.subscriptions.push(
    vscode.commands.registerCommand('howdah.openChangesSinceReview', async (target?: vscode.Uri | { uri?: vscode.Uri }) => {
      const uri = target instanceof vscode.Uri ? target : target?.uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!uri || !(await rounds.open(uri.with({ scheme: 'file', query: '' }).fsPath))) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: that file has no review round: send review comments on it first.'));
      }
    }),
  );

  return new EditsLayer({ storage, pending, sessions, tracker, writes, checkpoints, openChanges, rounds, milestones });
}

/**
 * VS Code hides CodeLens in diff editors unless `diffEditor.codeLens` is on; per-hunk Accept/Reject lives there. Ask
 * once, the first time there is something to review.
 */
function offerDiffCodeLensOnce(context: vscode.ExtensionContext, pending: PendingChanges): void {
  const KEY = 'howdah.offeredDiffCodeLens';
  if (context.globalState.get<boolean>(KEY)) return;
  const subscription = pending.onDidChange(() => {
    if (pending.count === 0 || vscode.workspace.getConfiguration('diffEditor').get<boolean>('codeLens')) return;
    subscription.dispose();
    void context.globalState.update(KEY, true);
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Howdah: show Accept and Reject above each change in diff editors? (turns on the diffEditor.codeLens setting)'), vscode.l10n.t('Turn On'), vscode.l10n.t('Not Now'))
      .then((choice) => {
        if (choice === vscode.l10n.t('Turn On')) void vscode.workspace.getConfiguration('diffEditor').update('codeLens', true, vscode.ConfigurationTarget.Global);
      });
  });
  context.subscriptions.push(subscription);
}

/** The list view exists only once package.json declares it (creating an undeclared view shows an error). */
function contributesView(context: vscode.ExtensionContext, id: string): boolean {
  const views = (context.extension.packageJSON as { contributes?: { views?: Record<string, { id?: string }[]> } }).contributes?.views ?? {};
  return Object.values(views).some((list) => list.some((v) => v.id === id));
}
