import * as vscode from 'vscode';
import type { Attachment, HostMessage, WebviewMessageOf } from '../shared/protocol';
import type { PanelSession } from './panelSessions';

/** Goes on with a message once the user chose: sends it as the prompt box would. */
type Send = (target: PanelSession, text: string, attachments: readonly Attachment[]) => Promise<void>;

interface Held {
  readonly id: number;
  readonly target: PanelSession;
  readonly text: string;
  readonly attachments: readonly Attachment[];
  readonly documents: readonly vscode.TextDocument[];
}

/**
 * Unsaved files, said before a prompt goes. Most agents read files from disk (agents-in-the-wild.md): one that has
 * not asked Howdah for a file this session would answer about text the user no longer sees. `howdah.saveBeforePrompt`:
 * `ask` holds the message and shows which files are unsaved above the prompt (Save all and send, Send anyway,
 * Cancel); `always` saves them and sends; `never` sends. A file attached to the prompt goes with its unsaved text
 * when the agent takes embedded context, so it is not counted.
 */
export class UnsavedGuard {
  private held: Held | undefined;
  private nextId = 0;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly send: Send,
  ) {}

  /** True when the message may go now; false when it is held for the user's choice (or was sent by `always`). */
  async mayGo(target: PanelSession, text: string, attachments: readonly Attachment[]): Promise<boolean> {
    // A new message while one is held: the user moved on; the held one goes back into the prompt box.
    if (this.held) {
      this.post({ type: 'draft', text: this.held.text, attachments: this.held.attachments });
      this.held = undefined;
      this.post({ type: 'unsaved', notice: null });
    }
    const mode = vscode.workspace.getConfiguration('howdah').get<string>('saveBeforePrompt', 'ask');
    if (mode === 'never' || target.session.readsFilesThroughClient) return true;
    const embedded = target.session.promptCapabilities.embeddedContext ? new Set(attachments.flatMap((a) => (a.kind === 'file' ? [a.uri] : []))) : new Set<string>();
    const documents = unsavedWorkspaceFiles().filter((d) => !embedded.has(d.uri.toString()));
    if (documents.length === 0) return true;
    if (mode === 'always') {
      await saveAll(documents);
      return true;
    }
    this.held = { id: ++this.nextId, target, text, attachments, documents };
    this.repost();
    return false;
  }

  async choose(message: WebviewMessageOf<'unsavedChoice'>): Promise<void> {
    if (message.choice === 'settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'howdah.saveBeforePrompt');
      return;
    }
    const held = this.held;
    if (!held || held.id !== message.id) return;
    this.held = undefined;
    this.post({ type: 'unsaved', notice: null });
    if (message.choice === 'cancel') {
      this.post({ type: 'draft', text: held.text, attachments: held.attachments });
      return;
    }
    if (message.choice === 'save') await saveAll(held.documents);
    await this.send(held.target, held.text, held.attachments);
  }

  /** The notice shown now, if any. */
  get notice(): { id: number; files: string[] } | undefined {
    return this.held && { id: this.held.id, files: this.held.documents.map((d) => vscode.workspace.asRelativePath(d.uri)) };
  }

  /** What the page shows again after it restarted (the view was hidden meanwhile). */
  repost(): void {
    const notice = this.notice;
    if (notice) this.post({ type: 'unsaved', notice });
  }
}

/** Files of the workspace with unsaved changes (untitled editors are not files the agent could read). */
function unsavedWorkspaceFiles(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && !!vscode.workspace.getWorkspaceFolder(d.uri));
}

async function saveAll(documents: readonly vscode.TextDocument[]): Promise<void> {
  const failed = (await Promise.all(documents.map(async (d) => ((await d.save()) ? undefined : vscode.workspace.asRelativePath(d.uri))))).filter((p) => p !== undefined);
  if (failed.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: could not save {0}; the agent reads what is on disk.', failed.join(', ')));
}
