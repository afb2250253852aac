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
}
