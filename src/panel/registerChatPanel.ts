import * as vscode from 'vscode';
import { registerChatCommands } from './chatCommands';
import type { ConversationBranches } from './branchViews';
import { ChatIntents, type CheckpointRestorer, type ConversationForker, type SessionStarter } from './chatIntents';
import { CHAT_VIEW_ID, ChatViewProvider, type TerminalSource } from './chatViewProvider';
import { ExternalOpener } from './externalOpener';
import { WorkspaceFileIndex } from './fileIndex';
import { GATE_INTENTS, type GateIntent, type GateView } from '../shared/gateProtocol';
import { PanelGate, type GateSources } from './panelGate';
import type { PanelSession, PanelSessions } from './panelSessions';
import { PermissionAlerts } from './permissionAlerts';
import { parseWebviewMessage, type Attachment, type HeaderView, type WebviewMessage } from '../shared/protocol';
import { ToolDiffViewer, type ReviewOpener } from './toolDiff';

/** What tests can observe of the panel without scraping the webview. */
export interface ChatPanelProbe {
  readonly postedMessages: number;
  readonly isVisible: boolean;
  readonly permissionNotifications: number;
  /** What the gate above the conversation shows now (as sent to the page). */
  readonly gate: GateView | undefined;
  /** What the Add … to Chat commands last attached to the prompt. */
  readonly attached: readonly Attachment[];
  /** The unsaved-files notice holding a message, if one is shown. */
  readonly unsavedNotice: { id: number; files: string[] } | undefined;
  /** The header the page gets now (the session in front: its agent, pickers, what the agent may do). */
  readonly header: HeaderView;
  /** Handles `raw` as if the page had posted it: parsed and routed the same way. */
  intent(raw: unknown): Promise<void>;
  /** Writes an informational line to the Howdah Chat log. */
  info(message: string): void;
  /** The links of agents' questions the user agreed to open (recorded instead of opened, for tests). */
  readonly links: ExternalOpener;
}

export interface ChatPanelOptions {
  /** New Session in the panel, and a prompt typed into an empty chat. */
  readonly starter: SessionStarter;
  /** "Restore files to before this message". */
  readonly checkpoints: CheckpointRestorer;
  /** "Fork from here" on a message. */
  readonly forks?: ConversationForker;
  /** The branches of edited messages, and Previous/Next branch. */
  readonly branches?: ConversationBranches;
  /** A tool card's "Open diff" opens the review of that file when it has pending changes. */
  readonly reviews?: ReviewOpener;
  /**
   * Command output for a session's tool cards (src/terminals' `outputModel(session.state)`: terminals we run and
   * those the agent reports). Without it, only what agents report in `_meta` is shown.
   */
  terminalOutputs?(managed: PanelSession): TerminalSource;
  /**
   * "Open in terminal" on a tool card: shows the output in a VS Code terminal; false when nothing is known. `source`
   * is what `terminalOutputs` returned for the active session.
   */
  openTerminal?(terminalId: string, source: TerminalSource | undefined): boolean;
  /** Sign-in, workspace trust and first-run agent choice, shown above the conversation. */
  gate?: GateSources;
}

const GATE_TYPES = new Set<string>(GATE_INTENTS.map((schema) => schema.shape.type.value));

/**
 * The chat panel: the `howdah.chat` webview view, its intents, `@` file search, permission badge and notifications,
 * and the Add Selection / Add File commands. Everything is owned by `context`.
 */
export function registerChatPanel(context: vscode.ExtensionContext, sessions: PanelSessions, options: ChatPanelOptions): ChatPanelProbe {
  const output = vscode.window.createOutputChannel(vscode.l10n.t('Howdah Chat'), { log: true });
  const provider = new ChatViewProvider(
    context.extensionUri,
    sessions,
    (message) => output.warn(message),
    options.terminalOutputs?.bind(options),
    options.openTerminal !== undefined,
    options.branches,
  );
  const files = new WorkspaceFileIndex();
  const diffs = new ToolDiffViewer(sessions, options.reviews);
  const alerts = new PermissionAlerts(sessions, () => provider.isVisible);
  const openTerminal = options.openTerminal;
  const links = new ExternalOpener();
  const intents = new ChatIntents({
    links,
    sessions,
    files,
    diffs,
    starter: options.starter,
    checkpoints: options.checkpoints,
    forks: options.forks,
    branches: options.branches,
    post: (m) => provider.post(m),
    openTerminal: openTerminal && ((terminalId) => openTerminal.call(options, terminalId, provider.activeTerminalSource())),
  });

  let lastAttached: readonly Attachment[] = [];
  const gate = options.gate && new PanelGate(options.gate);
  const postGate = () => provider.post({ type: 'gate', gate: gate?.view ?? null });
  gate?.onDidChange(postGate);
  provider.onReady = () => {
    if (gate) postGate();
    intents.unsaved.repost();
  };

  const handle = async (message: WebviewMessage): Promise<void> => {
    if (message.type === 'ready' || message.type === 'loadEarlier') return; // handled by the provider
    const failed = (error: unknown) => output.error(`${message.type} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    if (GATE_TYPES.has(message.type)) return gate?.handle(message as GateIntent).catch(failed);
    return intents.handle(message as Exclude<typeof message, GateIntent>).catch(failed);
  };
  provider.onIntent = (message) => void handle(message);
  provider.onViewChanged = (view) => alerts.setView(view);

  context.subscriptions.push(
    output,
    provider,
    files,
    diffs,
    alerts,
    intents,
    ...(gate ? [gate] : []),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    registerChatCommands((attachments) => {
      lastAttached = attachments;
      provider.attach(attachments);
      provider.focusPrompt();
    }, () => {
      const caps = sessions.active?.session.promptCapabilities;
      return { image: caps?.image ?? false, audio: caps?.audio ?? false };
    }),
  );
  return {
    get postedMessages() {
      return provider.postedMessages;
    },
    get isVisible() {
      return provider.isVisible;
    },
    get permissionNotifications() {
      return alerts.notifications;
    },
    get gate() {
      return gate?.view;
    },
    get attached() {
      return lastAttached;
    },
    get header() {
      return provider.currentHeader();
    },
    get unsavedNotice() {
      return intents.unsaved.notice;
    },
    links,
    info: (message) => output.info(message),
    async intent(raw) {
      const message = parseWebviewMessage(raw, (reason) => output.warn(reason));
      if (message) await handle(message);
    },
  };
}
