import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Checkpoints } from './checkpoints';
import { BASELINE_SCHEME, fsPathOf, type DiffViews } from './diffViews';
import { computeHunks, hunkAtLine, splitLines, type HunkRef } from './hunks';
import type { PendingChanges } from './pendingChanges';
import { PROPOSAL_SCHEME, type Proposal, type Proposals } from './proposals';
import type { Questions } from './questions';
import type { ReviewActions } from './reviewActions';
import type { ReviewMilestones } from './reviewMilestones';

export interface EditCommandDeps {
  pending: PendingChanges;
  proposals: Proposals;
  actions: ReviewActions;
  views: DiffViews;
  checkpoints: Checkpoints;
  questions: Questions;
  milestones: ReviewMilestones;
  /** Recent lines of the edits log, for the tests' diagnostics. */
  log: () => readonly string[];
  /** Sessions' roots snapshotted in the background so far, and sessions whose snapshot has yet to start
   * (TurnSnapshots.prepared, waitingToPrepare), for the tests. */
  backgroundSnapshots: () => { prepared: number; preparing: number };
  /** Saves the state now and says where (for the tests' look at what a reload would find). */
  save: () => Promise<string>;
}

type Target = { kind: 'review'; fsPath: string } | { kind: 'proposal'; proposal: Proposal } | { kind: 'opaque'; fsPath: string };

/**
 * The review's commands, in one table. Each takes what its callers have: a URI (editor title, tree row, the panel),
 * a CodeLens's `[uri, hunk]`, or nothing (the palette or a key binding: the active editor and its cursor).
 */
/** Registers the review's commands; returns the one the panel calls directly: open the review of a file. */
export function registerEditCommands(context: vscode.ExtensionContext, deps: EditCommandDeps): { openChanges(uri: vscode.Uri): Promise<boolean> } {
  const { pending, proposals, actions, views, checkpoints, questions, milestones, log, backgroundSnapshots, save } = deps;

  const targetOf = (arg: unknown): Target | undefined => {
    const uri = uriOf(arg) ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    if (uri.scheme === PROPOSAL_SCHEME) {
      const proposal = proposals.fromUri(uri);
      return proposal ? { kind: 'proposal', proposal } : undefined;
    }
    if (uri.scheme !== 'file' && uri.scheme !== BASELINE_SCHEME) return undefined;
    const fsPath = fsPathOf(uri);
    if (pending.has(fsPath)) return { kind: 'review', fsPath };
    const proposal = proposals.forPath(fsPath);
    if (proposal) return { kind: 'proposal', proposal };
    return pending.opaque(fsPath) ? { kind: 'opaque', fsPath } : undefined;
  };

  /** The hunk a command is about: the CodeLens's, or the one at the cursor (either side of the diff). */
  const hunkFor = async (target: Target, arg: unknown, given: unknown): Promise<HunkRef | undefined> => {
    if (isHunk(given)) return given;
    if (uriOf(arg)) return undefined;
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    const line = editor.selection.active.line;
    if (target.kind === 'proposal') {
      const c = await proposals.compare(target.proposal);
      const onLeft = editor.document.uri.scheme !== PROPOSAL_SCHEME;
      return onLeft ? c.hunks.find((h) => h.baseStart <= line && line < Math.max(h.baseEnd, h.baseStart + 1)) : hunkAtLine(c.hunks, line);
    }
    const c = await pending.compare(target.fsPath);
    if (!c) return undefined;
    if (editor.document.uri.scheme === BASELINE_SCHEME) return c.hunks.find((h) => h.baseStart <= line && line < Math.max(h.baseEnd, h.baseStart + 1));
    return hunkAtLine(computeHunks(c.base, splitLines(editor.document.getText())), line);
  };

  const onHunk = (accept: boolean) => async (arg?: unknown, given?: unknown) => {
    const target = targetOf(arg);
    const hunk = target && (await hunkFor(target, arg, given));
    if (!target || target.kind === 'opaque' || !hunk) {
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Howdah: no agent change here.'), 3000);
      return false;
    }
    const done =
      target.kind === 'proposal'
        ? await (accept ? proposals.acceptHunk(target.proposal, hunk) : proposals.rejectHunk(target.proposal, hunk))
        : await (accept ? actions.acceptHunk(target.fsPath, hunk) : actions.rejectHunk(target.fsPath, hunk));
    // A lens a refresh late whose change was decided or edited since: say so rather than do nothing silently.
    if (!done) void vscode.window.setStatusBarMessage(vscode.l10n.t('Howdah: that change is no longer there (decided or edited since).'), 4000);
    else milestones.reach('hunkDecided');
    return done;
  };

  const onFile = (accept: boolean) => async (arg?: unknown) => {
    const target = targetOf(arg);
    if (!target) return false;
    if (target.kind === 'proposal') {
      await (accept ? proposals.acceptAll(target.proposal) : proposals.rejectAll(target.proposal));
      return true;
    }
    if (target.kind === 'opaque') {
      if (accept) return pending.removeOpaque(target.fsPath);
      const done = await actions.rejectOpaque(target.fsPath);
      if (!done) void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: {0} cannot be restored: {1}.', path.basename(target.fsPath), pending.opaque(target.fsPath)?.why ?? vscode.l10n.t('its original was not recorded')));
      return done;
    }
    // The file may also have a held write over its unsaved buffer (an agent that writes the disk itself as well,
    // like OpenCode, leaves both): a decision on the file is a decision on all of the agent's changes to it.
    const held = proposals.forPath(target.fsPath);
    if (held) await (accept ? proposals.acceptAll(held) : proposals.rejectAll(held));
    if (accept) {
      actions.acceptFile(target.fsPath);
      return true;
    }
    const notOpen = !vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === target.fsPath);
    const before = notOpen ? await actions.snapshot(target.fsPath) : undefined;
    const done = await actions.rejectFile(target.fsPath);
    // Written on disk with no editor to undo in: offer the way back.
    if (done && before !== undefined) offerUndo(vscode.l10n.t('Rejected the agent\'s changes to {0}.', path.basename(target.fsPath)), new Map([[target.fsPath, before]]));
    return done;
  };

  const offerUndo = (message: string, undo: Map<string, string | null>) => {
    if (undo.size === 0) return;
    void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0}', message), vscode.l10n.t('Undo')).then(async (choice) => {
      if (choice === vscode.l10n.t('Undo')) await checkpoints.apply(undo);
    });
  };

  /** Resolves to true when a review opened; asked for a file with nothing pending (the chat panel does), it stays quiet. */
  const open = async (arg?: unknown): Promise<boolean> => {
    const target = targetOf(arg);
    if (!target) return false;
    if (target.kind === 'proposal') {
      await views.openProposal(target.proposal);
      return true;
    }
    if (target.kind === 'opaque') {
      // No text diff to show: the file itself, or a word that it is gone.
      const change = pending.opaque(target.fsPath)!;
      if (change.kind === 'deleted') void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: the agent deleted {0} ({1}).', path.basename(target.fsPath), change.why));
      else await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(target.fsPath), { preview: true });
      return true;
    }
    if (arg !== undefined && !pending.entry(target.fsPath)) return false;
    const c = await pending.compare(target.fsPath);
    await views.openReview(target.fsPath, { line: c?.hunks[0]?.curStart });
    return !!pending.entry(target.fsPath);
  };

  const move = (forward: boolean) => async () => {
    const editor = vscode.window.activeTextEditor;
    const hunks = editor ? await views.hunksOf(editor.document) : undefined;
    if (editor && hunks?.length) {
      const line = editor.selection.active.line;
      const next = forward ? hunks.find((h) => h.curStart > line) : [...hunks].reverse().find((h) => h.curStart < line);
      if (next) {
        const position = new vscode.Position(Math.min(next.curStart, editor.document.lineCount - 1), 0);
        editor.selection = new vscode.Selection(position, position);
        editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        return;
      }
    }
    // Past the last change of this file: on to the next file with changes.
    const files = pending.list();
    if (files.length === 0) return;
    const here = editor ? fsPathOf(editor.document.uri) : undefined;
    const index = files.findIndex((f) => fsPathOf(f.uri) === here);
    const step = forward ? 1 : -1;
    await open(files[(index + step + files.length) % files.length].uri);
  };

  const commands: Record<string, (...args: never[]) => unknown> = {
    'howdah.showChanges': async () => {
      const files = pending.list();
      if (files.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: no agent changes to review.'));
      if (files.length === 1) return void (await open(files[0].uri));
      const picked = await vscode.window.showQuickPick(
        files.map((f) => ({ label: path.basename(f.path), description: `${f.path}  ${f.kind === 'modified' ? `+${f.added} −${f.removed}` : f.kind}`, uri: f.uri })),
        { placeHolder: vscode.l10n.t('Agent changes to review') },
      );
      if (picked) await open(picked.uri);
    },
    'howdah.openChanges': open,
    'howdah.acceptHunk': onHunk(true),
    'howdah.rejectHunk': onHunk(false),
    'howdah.acceptFileChanges': onFile(true),
    'howdah.rejectFileChanges': onFile(false),
    'howdah.acceptAllChanges': async () => {
      for (const p of proposals.list()) await proposals.acceptAll(p);
      return actions.acceptAll();
    },
    'howdah.rejectAllChanges': async () => {
      for (const p of proposals.list()) await proposals.rejectAll(p);
      const undo = await actions.rejectAll();
      offerUndo(undo.size === 1 ? vscode.l10n.t('Rejected the agent\'s changes to 1 file.') : vscode.l10n.t('Rejected the agent\'s changes to {0} files.', undo.size), undo);
      const kept = pending.list().filter((c) => c.opaque && !c.opaque.restorable);
      if (kept.length > 0) {
        void vscode.window.showWarningMessage(
          kept.length === 1 ? vscode.l10n.t('Howdah: 1 changed file could not be restored (original not recorded): {0}.', kept[0].path) : vscode.l10n.t('Howdah: {0} changed files could not be restored (original not recorded): {1}{2}.', kept.length, kept.map((c) => c.path).slice(0, 5).join(', '), kept.length > 5 ? ', …' : ''),
        );
      }
      return undo.size;
    },
    'howdah.nextChange': move(true),
    'howdah.previousChange': move(false),
    'howdah.restoreCheckpoint': (key: string, turnIndex: number) => checkpoints.restore(String(key), Number(turnIndex)),
    // Not in the palette: what the integration tests read and script (see questions.ts).
    'howdah.edits.test.state': () => ({
      pending: pending.list().map((c) => ({ ...c, uri: c.uri.toString(), fsPath: fsPathOf(c.uri) })),
      proposals: proposals.list().map((p) => ({ path: p.path, mode: p.mode, text: p.text, uri: p.uri.toString() })),
      asked: questions.asked(),
      log: log(),
      ...backgroundSnapshots(),
    }),
    'howdah.edits.test.answer': (...answers: string[]) => questions.scriptAnswers(...answers),
    'howdah.edits.test.save': save,
  };
  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown));
  }
  return { openChanges: open };
}

function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(arg)) return vscode.Uri.parse(arg);
  if (typeof arg === 'object' && arg !== null && 'uri' in arg) return uriOf((arg as { uri: unknown }).uri);
  return undefined;
}

function isHunk(v: unknown): v is HunkRef {
  if (typeof v !== 'object' || v === null) return false;
  const h = v as Record<string, unknown>;
  const lines = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((l) => typeof l === 'string'));
  return ['baseStart', 'baseEnd', 'curStart', 'curEnd'].every((k) => Number.isInteger(h[k])) && lines(h.removed) && lines(h.added);
}
