import type { AgentHistory, PastSessionGroup } from './session/pastSessions';

/**
 * What `activate` returns: the surface the integration tests (and other extensions) drive Howdah through.
 * Everything here is also reachable from the UI; the API exists so tests can assert on real state
 * without scraping the webview.
 */
export interface HowdahApi {
  /** Starts a session with the agent `agentId` (default: `howdah.defaultAgent`), resolving to its key once `session/new` answered. */
  newSession(agentId?: string): Promise<string>;
  /** Sends a text prompt and resolves to the turn's stop reason. */
  prompt(sessionKey: string, text: string): Promise<string>;
  /** Cancels the running turn of the session. */
  cancel(sessionKey: string): Promise<void>;
  /** A JSON snapshot of the session's domain state (entries, tool calls, plan, modes, …). */
  snapshot(sessionKey: string): unknown;
  /** The pid of the agent process serving the session, while it runs. */
  agentPid(sessionKey: string): number | undefined;
  /** The last lines of the session's agent log (its stderr, lifecycle messages, protocol warnings). */
  agentLog(sessionKey: string): string[];
  /** Answers the permission prompt waiting on a tool call, as the panel's buttons do. False when none waits. */
  answerPermission(sessionKey: string, toolCallId: string, optionId: string): boolean;
  /** Keys of the sessions that exist now. */
  sessionKeys(): string[];
  /** Stops every session and agent process. */
  stopAll(): Promise<void>;
  /** While an agent waits for the user to sign in: its name, message and the ways offered (the panel's buttons). */
  signInRequest(): SignInRequestInfo | undefined;
  /**
   * Answers the sign-in question as the panel's buttons do; `undefined` gives up. `key`: what the user typed for a
   * choice that asks for a key (`asksForKey`); without it Howdah asks in a password box.
   */
  chooseSignIn(choiceId: string | undefined, key?: string): void;
  /** The active session's agent's own list of past sessions for this workspace (`session/list`), if it can list. */
  agentHistory(): Promise<{ agentId: string; sessions: readonly { sessionId: string; cwd: string; title?: string }[] } | undefined>;
  /**
   * "Open Past Session…"'s groups once every installed agent (or those named) answered `session/list`, asked in the
   * background and cached for the window; `refresh` asks again.
   */
  pastSessions(options?: { agentIds?: string[]; refresh?: boolean }): Promise<PastSessionGroup[]>;
  /** The next pages of one agent's list ("Load more"), after `cursor`. */
  morePastSessions(agentId: string, cursor: string): Promise<AgentHistory | undefined>;
  /** The lines of agent `agentId`'s output channel (also for agents started without a session). */
  agentLogOf(agentId: string): string[];
  /** Opens a past conversation as "Open Past Session…" does (an agent-listed one is loaded); resolves to its key. */
  openPast(entry: { agentId: string; sessionId: string; cwd: string; title?: string }): Promise<string | undefined>;
  /** Starts the session's agent again and continues the conversation (as the Restart button does). */
  restart(sessionKey: string): Promise<void>;
  /** Spec violations in the session's protocol log: each problem the timeline shows, as `<method>: <problem>`. */
  protocolProblems(sessionKey: string): string[];
  /** Makes the session active (the one the panel and the commands act on). */
  setActive(sessionKey: string): void;
  /** Treats the workspace as untrusted (no agent starts) until called with false. It can only make Howdah stricter. */
  simulateUntrustedWorkspace(untrusted: boolean): void;
  /**
   * What the panel shows above the conversation, as sent to the page: a sign-in question, an untrusted workspace, why
   * an agent could not start (`kind: 'startError'`), or the agents to choose from. Undefined when nothing is shown.
   */
  panelGate(): unknown;
  /** Handles `message` as if the chat page had posted it (a button's intent), parsed and routed the same way. */
  panelIntent(message: unknown): Promise<void>;
  /**
   * From now on (until called with false), links the user agrees to open from an agent's question (URL-mode
   * elicitation) are recorded, not opened; `openedLinks` lists them.
   */
  recordOpenedLinks(on: boolean): void;
  openedLinks(): string[];
  /** What the Add … to Chat commands (selection, file, problems, terminal selection) last attached to the prompt. */
  panelAttachments(): unknown[];
  /** The unsaved-files notice holding a sent message: its id (for `unsavedChoice`) and the files. */
  panelUnsavedNotice(): { id: number; files: string[] } | undefined;
  /** The chat panel's header as the page gets it now (JSON). */
  panelHeader(): unknown;
  /** Closes the session as the Close Session command does: its agent stops, everything created for it goes. */
  close(sessionKey: string): Promise<void>;
  /** Closes the session and deletes its saved transcript, as Delete Conversation does. */
  delete(sessionKey: string): Promise<void>;
  /**
   * What the extension host holds now, after a full garbage collection: for a leak check that opens and closes many
   * sessions and compares with a baseline.
   */
  resources(): ResourceCounts;
  /** A review comment on lines `startLine`–`endLine` (0-based) of a file under review, as the comment box adds one. */
  reviewComment(fsPath: string, startLine: number, endLine: number, text: string): void;
  /** "Send Review Comments to Agent"; false when nothing went. */
  sendReviewComments(): Promise<boolean>;
  /** Every review comment thread: its file, lines, and comments with the agent each was sent to. */
  reviewThreads(): { uri: string; range?: [number, number]; notes: { text: string; at: number; sentTo?: string }[] }[];
  /** The user turns of conversation `key` that have other branches: the branches, oldest first, and which it is. */
  branches(key: string): { turn: number; keys: string[]; index: number }[];
  /** Every agent Howdah lists (settings, registry, catalog), with its registry and installed versions. */
  agents(): Promise<AgentListing[]>;
  /** Fetches `howdah.registry.url` now, as Howdah: Refresh Agent Registry does; resolves to what happened. */
  refreshRegistry(): Promise<string>;
  /**
   * Installs (or updates) a registry agent through the installer the Install button uses, without the notification;
   * `cancelAfterBytes` cancels it once that much has been downloaded, as the notification's Cancel would.
   */
  installAgent(agentId: string, options?: { cancelAfterBytes?: number }): Promise<{ ok: true; version: string; dir: string; executable: string } | { ok: false; failure: string; message: string }>;
  /** Deletes an installed agent, as Howdah: Remove Agent… does. */
  removeAgent(agentId: string): Promise<void>;
  /** The folder agents are installed into (`globalStorageUri/agents`). */
  agentStorage(): string | undefined;
  /** Adds a second account of `baseId` as Howdah: Add Account… does; resolves to its id, its name and its config folder. */
  addAccount(baseId: string, label: string): Promise<{ id: string; name: string; folder: string; env: Record<string, string> }>;
  /** The installed version a session's agent was started from (undefined when it is not a Howdah install). */
  sessionAgentVersion(sessionKey: string): string | undefined;
}

export interface AgentListing {
  readonly id: string;
  readonly name: string;
  readonly source: 'settings' | 'registry' | 'catalog';
  readonly registryVersion?: string;
  readonly installedVersion?: string;
  readonly installed: boolean;
  readonly update?: string;
}

export interface ResourceCounts {
  /** Sessions the manager holds. */
  readonly sessions: number;
  /** Listeners subscribed to any of Howdah's own emitters (below the VS Code adapters). */
  readonly listeners: number;
  /** Scopes (session, connection) not yet disposed. */
  readonly scopes: number;
  /** V8 heap in use after a full collection, in bytes. */
  readonly heapUsed: number;
}

/** The sign-in question as the API shows it. */
export interface SignInRequestInfo {
  readonly agentId: string;
  readonly agentName: string;
  readonly message: string;
  readonly choices: readonly { readonly id: string; readonly label: string; readonly description?: string; readonly asksForKey?: boolean }[];
}
