import * as vscode from 'vscode';
import type { ConversationBranches } from './branchViews';
import type { ExternalOpener } from './externalOpener';
import type { WorkspaceFileIndex } from './fileIndex';
import { openLink, openLocation } from './linkOpener';
import type { PanelSession, PanelSessions } from './panelSessions';
import { problemsAttachment, terminalSelectionAttachment } from './editorContext';
import { buildPromptBlocks } from './promptBlocks';
import { PromptQueueControl } from './promptQueueControl';
import { UnsavedGuard } from './unsavedGuard';
import type { Attachment, HostMessage, WebviewMessage, WebviewMessageOf } from '../shared/protocol';
import type { ToolDiffViewer } from './toolDiff';
import { userTurnIndex } from './viewModel';

/** Starts a session as the New Session command does: asks for an agent when there is no default, shows its errors. */
export interface SessionStarter {
  start(agentId?: string, options?: { readonly focus?: boolean }): Promise<PanelSession | undefined>;
}

/** "Restore files to before this message": the edits layer asks for confirmation (listing the files) and does it. */
export interface CheckpointRestorer {
  restoreCheckpoint(key: string, turnIndex: number): Promise<boolean>;
}

/** "Fork from here" and "Edit message": a new conversation that continues from a message (src/agents/continuations.ts). */
export interface ConversationForker {
  fork(key: string, entryId: number): Promise<unknown>;
  editAndResend(key: string, entryId: number, text: string): Promise<unknown>;
  regenerate(key: string, answerEntryId: number): Promise<unknown>;
}

interface Dependencies {
  readonly sessions: PanelSessions;
  readonly files: WorkspaceFileIndex;
  readonly diffs: ToolDiffViewer;
  readonly starter: SessionStarter;
  readonly checkpoints: CheckpointRestorer;
  readonly forks?: ConversationForker;
  readonly branches?: ConversationBranches;
  /** Opens the links of URL-mode questions the user agreed to open. */
  readonly links: ExternalOpener;
  post(message: HostMessage): void;
  openTerminal?(terminalId: string): boolean;
}

/**
 * What the user asked for in the webview, turned into calls on the session, the workspace or the editor. Every
 * message has already been parsed; values that name something (a tool call, an option) are checked against the
 * session again, since the page may be showing an older state.
 */
export class ChatIntents implements vscode.Disposable {
  /** The last prompt of each session, for Retry. */
  private readonly lastPrompt = new Map<string, { text: string; attachments: readonly Attachment[] }>();
  /** The session New Session is starting: a prompt sent meanwhile is meant for it, not for the one still shown. */
  private starting: Promise<PanelSession | undefined> | undefined;

  private readonly queue: PromptQueueControl;
  /** Holds a message while unsaved files are shown (`howdah.saveBeforePrompt`). */
  readonly unsaved: UnsavedGuard;

  constructor(private readonly deps: Dependencies) {
    this.unsaved = new UnsavedGuard(deps.post, (target, text, attachments) => this.sendTo(target, text, attachments));
    this.queue = new PromptQueueControl(
      deps.sessions,
      (target, text, attachments) => this.sendTo(target, text, attachments),
      async (target, text, attachments) => {
        const blocks = await this.blocksFor(target, text, attachments);
        return blocks.length > 0 && target.session.interject(blocks);
      },
    );
  }

  dispose(): void {
    this.queue.dispose();
  }

  async handle(message: Exclude<WebviewMessage, { type: 'ready' | 'loadEarlier' }>): Promise<void> {
    const active = this.deps.sessions.active;
    switch (message.type) {
      case 'send':
        return this.send(message);
      case 'retry': {
        const last = active && this.lastPrompt.get(active.key);
        if (last) return this.send({ type: 'send', ...last, attachments: [...last.attachments] });
        return;
      }
      case 'cancel':
        return active && this.deps.sessions.cancel(active.key);
      case 'newSession':
        await this.startSession();
        return;
      case 'selectSession':
        return this.deps.sessions.setActive(message.key);
      case 'permission':
        if (active && !active.session.answerPermission(message.toolCallId, message.optionId)) {
          this.deps.post({ type: 'focusPrompt' });
        }
        return;
      case 'elicitation':
        return this.answerQuestion(message);
      case 'setMode':
        return this.guard(vscode.l10n.t('change the mode'), active?.session.setMode(message.modeId));
      case 'setConfigOption':
        return this.guard(vscode.l10n.t('change the setting'), active?.session.setConfigOption(message.configId, message.value));
      case 'setModel':
        return this.guard(vscode.l10n.t('change the model'), active?.session.setModel(message.modelId));
      case 'openLink':
        return openLink(message.href);
      case 'openLocation':
        return openLocation(message.path, message.line);
      case 'openDiff':
        return this.deps.diffs.open(message.toolCallId, message.index);
      case 'openTerminal':
        if (!this.deps.openTerminal?.(message.terminalId)) void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: there is no output to show for that command.'));
        return;
      case 'searchFiles': {
        const files = await this.deps.files.search(message.query);
        this.deps.post({ type: 'fileResults', requestId: message.requestId, files });
        return;
      }
      case 'copy':
        return vscode.env.clipboard.writeText(message.text);
      case 'openSetting':
        return vscode.commands.executeCommand('workbench.action.openSettings', message.setting);
      case 'restoreCheckpoint':
        return this.restoreCheckpoint(active, message.entryId);
      case 'fork':
        if (active) await this.deps.forks?.fork(active.key, message.entryId);
        return;
      case 'editMessage':
        if (active) await this.deps.forks?.editAndResend(active.key, message.entryId, message.text);
        return;
      case 'unsavedChoice':
        return this.unsaved.choose(message);
      case 'switchBranch': {
        const turn = active && userTurnIndex(active.session.state.entries, message.entryId);
        if (active && turn !== undefined) await this.deps.branches?.switchTo(active.key, turn, message.direction);
        return;
      }
      case 'regenerate':
        if (active) await this.deps.forks?.regenerate(active.key, message.entryId);
        return;
      case 'queueEdit':
        if (active) this.queue.edit(active, message.id, message.text);
        return;
      case 'queueRemove':
        if (active) this.queue.remove(active, message.id);
        return;
      case 'queueSendNow':
        return active && this.queue.sendNow(active, message.id);
    }
  }

  /**
   * An agent's question answered on its card. Open on a link card opens it first (accept means the user agreed to
   * open it); if it could not be opened the question still waits. The page may show a question already answered (by
   * Stop, the agent): nothing to do then.
   */
  private async answerQuestion(message: WebviewMessageOf<'elicitation'>): Promise<void> {
    const record = this.deps.sessions.questions?.find(message.key);
    if (!record) return this.deps.post({ type: 'focusPrompt' });
    if (record.mode === 'url' && message.action === 'accept') {
      if (!record.url || !(await this.deps.links.open(record.url))) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: the link was not opened; the agent still waits for your answer.'));
        return;
      }
    }
    if (!this.deps.sessions.questions?.answer(message.key, { action: message.action, inputs: message.inputs })) this.deps.post({ type: 'focusPrompt' });
  }

  private async restoreCheckpoint(active: PanelSession | undefined, entryId: number): Promise<void> {
    const turnIndex = active && userTurnIndex(active.session.state.entries, entryId);
    if (!active || turnIndex === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: that message is no longer in this conversation.'));
      return;
    }
    try {
      await this.deps.checkpoints.restoreCheckpoint(active.key, turnIndex);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: could not restore the files: {0}', error instanceof Error ? error.message : String(error)));
    }
  }

  private async send(message: WebviewMessageOf<'send'>): Promise<void> {
    let target: PanelSession | undefined = (this.starting && (await this.starting)) || this.deps.sessions.active;
    // An exited session continues: the manager starts its agent again and resumes before prompting.
    if (!target) {
      // Typing into an empty chat starts a session, as the user expects.
      target = await this.startSession();
      if (!target) return;
    }
    if (target.session.state.turn !== 'idle') {
      // Sent while the agent works: it goes when the turn ends.
      if (!this.queue.enqueue(target, message.text, message.attachments)) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: the queue is full: wait for the agent, or remove a queued message.'));
      }
      return;
    }
    if (!(await this.unsaved.mayGo(target, message.text, message.attachments))) return;
    await this.sendTo(target, message.text, message.attachments);
  }

  /** Builds the prompt from the text and attachments and sends it; resolves when the turn is over. */
  private async sendTo(target: PanelSession, text: string, attachments: readonly Attachment[]): Promise<void> {
    const blocks = await this.blocksFor(target, text, attachments);
    if (blocks.length === 0) return;
    this.lastPrompt.set(target.key, { text, attachments });
    // Failures are recorded in the transcript (with Retry) by the session.
    await this.deps.sessions.prompt(target.key, blocks).catch(() => undefined);
  }

  private blocksFor(target: PanelSession, text: string, attachments: readonly Attachment[]) {
    const caps = target.session.promptCapabilities;
    return buildPromptBlocks(text, attachments, {
      embeddedContext: caps.embeddedContext,
      image: caps.image,
      audio: caps.audio,
      readText: readWorkspaceText,
      // `@problems`: the workspace's errors and warnings; `@terminal`: the active terminal's selection.
      readContext: async (source) => (source === 'problems' ? problemsAttachment() : await terminalSelectionAttachment()),
    });
  }

  /** A new session as the New Session command starts it, without focusing the view: the user is in it already. */
  private startSession(): Promise<PanelSession | undefined> {
    // The starter has shown the manager's errors; anything else (the default agent not saved) leaves no session.
    const starting = this.deps.starter.start(undefined, { focus: false }).catch(() => undefined);
    this.starting = starting;
    void starting.finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    return starting;
  }

  private async guard(what: string, call: Promise<void> | undefined): Promise<void> {
    try {
      await call;
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Howdah: could not {0}: {1}', what, error instanceof Error ? error.message : String(error)));
    }
  }
}

/** A file's text for embedding, only from inside the workspace (the page names the file; it is not trusted). */
async function readWorkspaceText(uriText: string): Promise<string | undefined> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(uriText, true);
  } catch {
    return undefined;
  }
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  // An open editor's unsaved text is what the user sees.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.includes(0)) return undefined; // binary
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return undefined;
  }
}
