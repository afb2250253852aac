import * as vscode from 'vscode';
import { pageLocalization } from '../localization';
import { chatPageHtml } from './html';
import { PerSession, type PanelSession, type PanelSessions } from './panelSessions';
import { parseWebviewMessage, type Attachment, type HeaderView, type HostMessage, type WebviewMessage } from '../shared/protocol';
import { toPosted } from '../shared/postedText';
import { SessionProjector } from './sessionProjector';
import { TerminalTails } from './terminalTails';
import { branchLookup, type ConversationBranches } from './branchViews';
import { headerView, type EntryLookups, type TerminalLookup } from './viewModel';

/** A session's command output for the tool cards, and which cards to render again when it changes. */
export interface TerminalSource extends TerminalLookup {
  onDidChange?(listener: (change: { readonly toolCallIds: readonly string[] }) => void): { dispose(): void };
  dispose(): void;
}

export const CHAT_VIEW_ID = 'howdah.chat';

/** Long deltas go to the page as UTF-8 bytes (postedText.ts). */
const utf8 = new TextEncoder();
const encode = (text: string) => utf8.encode(text);

/**
 * The chat view: owns the webview's lifecycle and what is posted to it. The webview is a projection: whenever it
 * (re)starts it says `ready` and gets a snapshot of the active session, then patches from a `SessionProjector`. When
 * the view is hidden VS Code destroys the page, so nothing is posted until the next `ready`. User intents are parsed
 * here and handed to `onIntent`.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private projector: SessionProjector | undefined;
  private projectedKey: string | undefined;
  private epoch = 0;
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly terminals: PerSession<TerminalSource>;
  private terminalSubscription: { dispose(): void } | undefined;
  /** Attachments added while the page was not there, delivered with the next snapshot. */
  private pendingAttachments: Attachment[] = [];
  private focusPending = false;
  /** Posts made, for tests. */
  postedMessages = 0;
  onIntent: (message: WebviewMessage) => void = () => undefined;
  onViewChanged: (view: vscode.WebviewView | undefined) => void = () => undefined;
  /** A page (re)started and has its snapshot: what is posted apart from the session (the gate) goes now. */
  onReady: () => void = () => undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly sessions: PanelSessions,
    private readonly log: (message: string) => void,
    /** Command output per session; by default what agents report in `_meta` (TerminalTails). */
    terminalSource: (managed: PanelSession) => TerminalSource = (managed) => new TerminalTails(managed.session.state),
    /** Whether tool cards offer "Open in terminal". */
    private readonly canOpenTerminals = false,
    private readonly branches?: ConversationBranches,
  ) {
    this.terminals = new PerSession(sessions, terminalSource);
    this.disposables.push(
      this.terminals,
      // Rare (an edit, a deleted branch): the page gets the conversation again, its branch controls with it.
      ...(branches ? [branches.onDidChange(() => this.ready && this.startProjecting())] : []),
      sessions.onDidChange(() => this.sessionsChanged()),
      // Paths are shown relative to the folders: the page needs the new ones.
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.projector?.headerChanged()),
      // What the agent may do is shown from these settings until it runs (see agents/sessionAllowances.ts).
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('howdah') && this.projector?.headerChanged()),
    );
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'out'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    const asUri = (...path: string[]) => view.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...path)).toString();
    view.webview.html = chatPageHtml({
      cspSource: view.webview.cspSource,
      script: asUri('out', 'webview.js'),
      styles: [asUri('media', 'codicons', 'codicon.css'), asUri('media', 'chat.css')],
      localization: pageLocalization(),
    });
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => {
        // A hidden view's page is gone; the next one says `ready`.
        if (!view.visible) this.stopProjecting();
        this.onViewChanged(view);
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.disposeView();
          this.view = undefined;
          this.onViewChanged(undefined);
        }
      }),
    );
    this.onViewChanged(view);
  }

  /** Attaches to the prompt (Add Selection / Add File), now or when the page is next ready. */
  attach(attachments: Attachment[]): void {
    if (this.ready) this.post({ type: 'attach', attachments });
    else this.pendingAttachments.push(...attachments);
  }

  focusPrompt(): void {
    if (this.ready) this.post({ type: 'focusPrompt' });
    else this.focusPending = true;
  }

  /** The command output source of the active session (for "Open in terminal"). */
  activeTerminalSource(): TerminalSource | undefined {
    const active = this.sessions.active;
    return active ? this.terminals.get(active.key) : undefined;
  }

  /** Posts to the page; the promise settles when the workbench has delivered it (the projector paces by it). */
  post(message: HostMessage): Thenable<boolean> | undefined {
    if (!this.view || !this.ready) return undefined;
    this.postedMessages++;
    return this.view.webview.postMessage(toPosted(message, encode));
  }

  dispose(): void {
    this.disposeView();
    for (const d of this.disposables) d.dispose();
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw, this.log);
    if (!message) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.startProjecting();
      this.onReady();
      if (this.pendingAttachments.length > 0) this.post({ type: 'attach', attachments: this.pendingAttachments.splice(0) });
      if (this.focusPending) this.post({ type: 'focusPrompt' });
      this.focusPending = false;
      return;
    }
    if (message.type === 'loadEarlier') {
      // a view concern, not a session intent: the projector has what the page holds
      if (this.projector) this.post(this.projector.earlier(message.before, message.count));
      return;
    }
    this.onIntent(message);
  }

  private sessionsChanged(): void {
    if (!this.ready) return;
    if (this.sessions.active?.key !== this.projectedKey) this.startProjecting();
    else this.projector?.headerChanged();
  }

  /** A fresh projector and a snapshot, for a new page or a different active session. */
  private startProjecting(): void {
    this.projector?.dispose();
    this.terminalSubscription?.dispose();
    const active = this.sessions.active;
    const source = this.activeTerminalSource();
    const state = active?.session.state;
    const terminals: EntryLookups = {
      canOpen: this.canOpenTerminals,
      get: (terminalId) => source?.get(terminalId),
      terminalIds: source?.terminalIds && ((toolCallId) => source.terminalIds?.(toolCallId) ?? []),
      branch: state && this.branches && branchLookup(() => state.entries, this.branches.positionsIn(active.key)),
    };
    this.projectedKey = active?.key;
    const projector = new SessionProjector(++this.epoch, active?.session.state, terminals, () => this.header(), (m) => this.post(m));
    this.projector = projector;
    this.terminalSubscription = source?.onDidChange?.((change) => projector.toolCallsChanged(change.toolCallIds));
    this.post(projector.snapshot());
  }

  private stopProjecting(): void {
    this.ready = false;
    this.terminalSubscription?.dispose();
    this.terminalSubscription = undefined;
    this.projector?.dispose();
    this.projector = undefined;
    this.projectedKey = undefined;
  }

  /** What the page's header shows now (for the tests' probe). */
  currentHeader(): HeaderView {
    return this.header();
  }

  private header(): HeaderView {
    const active = this.sessions.active;
    const caps = active?.session.promptCapabilities;
    return headerView(active?.session.state, {
      status: active ? active.status : 'none',
      sessionKey: active?.key,
      agentName: active?.agentName,
      agentVersion: active?.agentVersion,
      sessions: this.sessions.list().map((m) => ({ key: m.key, label: sessionLabel(m.agentName, m.session.state.info.title, m.key) })),
      capabilities: { image: caps?.image ?? false, audio: caps?.audio ?? false, embeddedContext: caps?.embeddedContext ?? false, midTurn: active?.session.takesMessagesMidTurn ?? false },
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath })),
      allowances: active?.allowances,
    });
  }

  private disposeView(): void {
    this.stopProjecting();
    for (const d of this.viewDisposables.splice(0)) d.dispose();
  }
}

function sessionLabel(agentName: string, title: string | undefined, key: string): string {
  return title ? `${agentName}: ${title}` : `${agentName} (${key})`;
}
