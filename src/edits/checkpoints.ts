import * as vscode from 'vscode';
import type { ChangeTracker } from './changeTracker';
import type { ContentRef, EditsState } from './editsState';
import type { PendingChanges } from './pendingChanges';
import type { Questions } from './questions';
import type { ReviewActions } from './reviewActions';

/**
 * "Restore files to before this message": every file changed in that turn or a later one goes back to what it held
 * before that turn, after the user confirmed the list. No hidden repository and no git: the per-turn checkpoints the
 * tracker recorded hold the contents. What the files held just before the restore is kept, and offered back as Undo.
 */
export class Checkpoints {
  /** A restore is being confirmed or applied: a second one (a double click) would ask again once it is done. */
  private restoring = false;

  constructor(
    private readonly state: EditsState,
    private readonly pending: PendingChanges,
    private readonly tracker: ChangeTracker,
    private readonly actions: ReviewActions,
    private readonly questions: Questions,
    /** Told of every restore that happened (the walkthrough's last step). */
    private readonly restored: () => void = () => undefined,
  ) {}

  /** The files a restore to before turn `turnIndex` of session `key` would touch. */
  files(key: string, turnIndex: number): string[] {
    return [...this.state.checkpoint(key, turnIndex).keys()];
  }

  async restore(key: string, turnIndex: number): Promise<boolean> {
    if (this.restoring) return false;
    this.restoring = true;
    try {
      const done = await this.restoreNow(key, turnIndex);
      if (done) this.restored();
      return done;
    } finally {
      this.restoring = false;
    }
  }

  private async restoreNow(key: string, turnIndex: number): Promise<boolean> {
    if (this.tracker.currentTurn(key)?.running) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: stop the agent first; it is still working and could change the files again.'));
      return false;
    }
    const files = this.state.checkpoint(key, turnIndex);
    // Changed since then without a recorded original: nothing to restore them to, so say which stay as they are.
    const unrecorded = [...this.state.opaque.values()].filter((o) => o.session === key && o.turn >= turnIndex && o.baseline === undefined);
    const kept = unrecorded.map((o) => `${vscode.workspace.asRelativePath(o.path)} — ${o.why}`);
    const keptNote = kept.length > 0 ? ('\n\n' + (kept.length === 1 ? vscode.l10n.t('Not restored, its original was not recorded:\n{0}', kept[0]) : vscode.l10n.t('Not restored, their original was not recorded:\n{0}{1}', kept.slice(0, 10).join('\n'), kept.length > 10 ? ('\n' + vscode.l10n.t('… and {0} more', kept.length - 10)) : ''))) : '';
    if (files.size === 0) {
      if (kept.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: nothing can be restored to before that message.{0}', keptNote));
      else void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: no file was changed since that message.'));
      return false;
    }
    const names: string[] = [];
    for (const p of files.keys()) {
      const later = await this.actions.changedSinceAgent(p);
      names.push(`${vscode.workspace.asRelativePath(p)}${later ? (' ' + vscode.l10n.t('(changed since by someone else: those changes go too)')) : ''}`);
    }
    const listed = names.slice(0, 15).join('\n') + (names.length > 15 ? ('\n' + vscode.l10n.t('… and {0} more', names.length - 15)) : '');
    const answer = await this.questions.ask(
      files.size === 1 ? vscode.l10n.t('Restore 1 file to before this message?') : vscode.l10n.t('Restore {0} files to before this message?', files.size),
      vscode.l10n.t('{0}\n\nFiles created since then are moved to the trash. What the files hold now can be brought back with Undo.{1}', listed, keptNote),
      vscode.l10n.t('Restore'),
    );
    if (answer !== vscode.l10n.t('Restore')) return false;
    const undo = await this.apply(files);
    for (const p of files.keys()) if (this.pending.has(p)) await this.pending.refresh(p);
    void vscode.window.showInformationMessage(files.size === 1 ? vscode.l10n.t('Howdah: restored 1 file.') : vscode.l10n.t('Howdah: restored {0} files.', files.size), vscode.l10n.t('Undo')).then(async (choice) => {
      if (choice === vscode.l10n.t('Undo')) await this.apply(undo);
    });
    return true;
  }

  /** Writes each file's stored content; returns what they held before, for Undo. */
  async apply(files: ReadonlyMap<string, ContentRef>): Promise<Map<string, ContentRef>> {
    const undo = new Map<string, ContentRef>();
    const failed: string[] = [];
    for (const [path, ref] of files) {
      try {
        const before = await this.actions.snapshot(path);
        if (before === ref) continue;
        if (before !== undefined) undo.set(path, before);
        await this.actions.restoreContent(path, ref);
        if (this.pending.has(path)) this.pending.scheduleRefresh(path, 0);
      } catch (error) {
        failed.push(`${vscode.workspace.asRelativePath(path)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failed.length > 0) void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: could not restore {0} file(s).', failed.length), { detail: failed.join('\n'), modal: false });
    return undo;
  }
}
