import * as vscode from 'vscode';
import { BranchTree, type BranchPosition } from '../session/branches';
import type { SessionManager } from './sessionManager';
import type { SessionStore } from './sessionStore';

/** Not `.json`: only transcripts end so. */
const BRANCHES_FILE = 'branches.state';

/**
 * The branches of this workspace's conversations (src/session/branches.ts), kept in a file beside the transcripts so
 * they survive a window reload, and the switch between them: "Previous branch" / "Next branch" on an edited message
 * shows the other conversation in the same place of the session list, its transcript read back when it is not open
 * (its agent resumes it with the next message, where it can). The one it replaces is closed and kept.
 */
export class BranchIndex implements vscode.Disposable {
  private tree = new BranchTree();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A branch was made, switched to or forgotten. */
  readonly onDidChange = this.changed.event;
  private readonly ready: Promise<void>;
  private loaded = false;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly manager: SessionManager,
    private readonly store: SessionStore | undefined,
  ) {
    this.ready = this.load().finally(() => (this.loaded = true));
    this.subscription = manager.onDidDelete((key) => void this.forget(key));
  }

  /** Where conversation `key` stands at each of its user turns that has other branches. */
  positionsIn(key: string): Map<number, BranchPosition> {
    return this.tree.positionsIn(key);
  }

  /** Conversation `child` is `parent`'s, changed at user turn `at` (an edit, a regenerate). */
  async record(child: string, parent: string, at: number): Promise<void> {
    await this.ready;
    this.tree.add(child, parent, at);
    await this.save();
  }

  /**
   * Shows the branch before (`-1`) or after (`1`) the one conversation `key` holds at user turn `turn`. Undefined when
   * there is none that way; the key shown otherwise.
   */
  async switchTo(key: string, turn: number, direction: -1 | 1): Promise<string | undefined> {
    await this.ready;
    const position = this.tree.alternativesAt(key, turn);
    const target = position?.keys[position.index + direction];
    if (!target) return undefined;
    if (!this.manager.get(target)) {
      // What changed in it since its last save (it was closed moments ago, perhaps) is on disk first.
      await this.store?.flush();
      const saved = await this.store?.load(target);
      if (!saved) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: that branch of the conversation is no longer saved.'));
        await this.forget(target);
        return undefined;
      }
      this.manager.restoreSaved([saved]);
    }
    await this.manager.putInPlaceOf(key, target);
    return target;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private async forget(key: string): Promise<void> {
    // At once when the file is read already: the deleted conversation's siblings lose their control with it.
    if (!this.loaded) await this.ready;
    if (!this.tree.has(key)) return;
    this.tree.remove(key);
    await this.save();
  }

  /** Reads the file; a conversation neither open nor saved any more (pruned, deleted elsewhere) is forgotten. */
  private async load(): Promise<void> {
    const text = await this.store?.readSideFile(BRANCHES_FILE);
    if (text === undefined) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const tree = BranchTree.parse(raw);
    const saved = (await this.store?.savedKeys()) ?? new Set<string>();
    const gone = tree.keys().filter((key) => !saved.has(key) && !this.manager.get(key));
    for (const key of gone) tree.remove(key);
    this.tree = tree;
    if (gone.length > 0) await this.save();
    this.changed.fire();
  }

  private async save(): Promise<void> {
    this.changed.fire();
    await this.store?.writeSideFile(BRANCHES_FILE, JSON.stringify(this.tree));
  }
}
