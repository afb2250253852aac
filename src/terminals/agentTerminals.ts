import * as vscode from 'vscode';
import type { ClientHandlers } from '../acp/clientHandlers';
import type { ManagedTerminal } from './managedTerminal';
import { approvedCommandLines, SessionTerminals, type ConfirmRequest, type TerminalSettings } from './sessionTerminals';
import { TerminalOutputModel, type ReplaySource, type ToolCallSource } from './terminalOutputModel';
import { TerminalRegistry } from './terminalRegistry';
import { openTerminalView } from './terminalView';

/**
 * The VS Code side of agent terminals: settings, the modal question before a command runs, and a read-only VS Code
 * terminal for each command (live for ours, replayed for the agent's own). `registerTerminals` is called once from
 * `activate`; `forSession` builds the `terminal/*` handlers for one agent connection.
 */

export type TerminalHandlers = Required<Pick<ClientHandlers, 'createTerminal' | 'terminalOutput' | 'waitForTerminalExit' | 'killTerminal' | 'releaseTerminal'>>;

export interface SessionTerminalHandlers extends TerminalHandlers {
  /** Releases every terminal of the session: their process trees die. Call when the session ends or the agent exits. */
  dispose(): Promise<void>;
}

export interface ForSessionOptions {
  /** Shown in the question before a command runs. */
  agentName: string;
  /** The session's cwd (default cwd of commands) and roots (where a cwd may be). */
  cwd: string;
  roots: readonly string[];
  /** The agent's environment (process.env plus the agent's `env`): commands inherit it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The session's tool calls, to see which commands the user already allowed through the agent's permission prompts. */
  toolCalls?(): Iterable<{ rawInput?: unknown; title?: string; permissionAnswer?: { kind: string } | 'cancelled' }>;
}

export interface TerminalsService {
  readonly registry: TerminalRegistry;
  forSession(options: ForSessionOptions): SessionTerminalHandlers;
  /** The conversation's view of command output for one session (dispose it with the session). */
  outputModel(source: ToolCallSource): TerminalOutputModel;
  /** "Open in terminal": shows a terminal's output in a read-only VS Code terminal. False when nothing is known of it. */
  open(terminalId: string, model?: TerminalOutputModel): boolean;
}

/** Replaces the editor's dialogs in tests. */
export interface TerminalUiOverrides {
  confirm?(request: ConfirmRequest): Promise<boolean>;
  confirmKill?(title: string): Promise<boolean>;
  /** Reveal each new command's terminal (default true). */
  reveal?: boolean;
  graceMs?: number;
}

/** Finished commands whose terminals stay open; older ones close as new commands start. */
const MAX_FINISHED_VIEWS = 10;

export function registerTerminals(context: { subscriptions: { dispose(): unknown }[] }, ui: TerminalUiOverrides = {}): TerminalsService {
  const registry = new TerminalRegistry();
  const views = new Map<string, { terminal: vscode.Terminal; finished: () => boolean; opened: number }>();
  const sessions = new Set<SessionTerminals>();
  context.subscriptions.push(
    vscode.window.onDidCloseTerminal((closed) => {
      for (const [id, view] of views) if (view.terminal === closed) views.delete(id);
    }),
    {
      // The extension host is going away: no time for grace periods.
      dispose: () => {
        for (const s of sessions) s.disposeNow();
        registry.dispose();
        for (const view of views.values()) view.terminal.dispose();
      },
    },
  );

  const confirmKill = (title: string): Thenable<boolean> =>
    ui.confirmKill
      ? ui.confirmKill(title)
      : vscode.window.showWarningMessage(vscode.l10n.t('Stop {0}?', title), { modal: true, detail: vscode.l10n.t('The agent started this command; it will see it ended by a signal.') }, vscode.l10n.t('Stop')).then((c) => c === vscode.l10n.t('Stop'));

  const show = (terminalId: string, source: ReplaySource, header: string, reveal: boolean): void => {
    const existing = views.get(terminalId);
    if (existing) {
      existing.terminal.show(!reveal);
      return;
    }
    const terminal = openTerminalView({ source, header, confirmKill, reveal });
    views.set(terminalId, { terminal, finished: () => !source.running(), opened: Date.now() });
    const finished = [...views.entries()].filter(([, v]) => v.finished()).sort((a, b) => a[1].opened - b[1].opened);
    for (const [id, view] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_VIEWS))) {
      views.delete(id);
      view.terminal.dispose();
    }
  };

  const sourceOf = (t: ManagedTerminal): ReplaySource => ({
    title: t.commandLine,
    replay: () => t.replay(),
    follow: (onData, onExit) => t.follow(onData, onExit),
    exitStatus: () => t.exitStatus,
    running: () => t.running,
    kill: () => t.kill(),
  });

  return {
    registry,
    forSession(options) {
      const session = new SessionTerminals({
        agentName: options.agentName,
        cwd: options.cwd,
        roots: options.roots,
        env: options.env,
        registry,
        graceMs: ui.graceMs,
        ports: {
          settings: readSettings,
          confirm: (request) => (ui.confirm ? ui.confirm(request) : askToRun(request)),
          show: (t) => show(t.id, sourceOf(t), `$ ${t.commandLine}    (${t.cwd})`, ui.reveal ?? true),
          approvedCommands: () => (options.toolCalls ? approvedCommandLines(options.toolCalls()) : []),
          warn: (message) => void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: {0}', message)),
        },
      });
      sessions.add(session);
      return {
        createTerminal: (params, signal) => session.createTerminal(params, signal),
        terminalOutput: (params) => session.terminalOutput(params),
        waitForTerminalExit: (params, signal) => session.waitForTerminalExit(params, signal),
        killTerminal: (params) => session.killTerminal(params),
        releaseTerminal: (params) => session.releaseTerminal(params),
        dispose: async () => {
          await session.dispose();
          sessions.delete(session);
        },
      };
    },
    outputModel: (source) => new TerminalOutputModel(source, registry),
    open(terminalId, model) {
      const ours = registry.get(terminalId);
      const source = ours ? sourceOf(ours) : model?.replaySource(terminalId);
      if (!source) return false;
      if (ours?.isReleased) source.kill = undefined;
      show(terminalId, source, ours ? `$ ${ours.commandLine}    (${ours.cwd})` : vscode.l10n.t('{0} (run by the agent)', source.title), true);
      return true;
    },
  };
}

function readSettings(): TerminalSettings {
  const config = vscode.workspace.getConfiguration('howdah');
  const list = (key: string) => (config.get<unknown[]>(key) ?? []).filter((p): p is string => typeof p === 'string');
  return {
    mode: config.get<'allow' | 'ask' | 'off'>('terminal', 'allow'),
    deny: list('commands.deny'),
    ask: list('commands.ask'),
  };
}

/** The modal question: the full command (hidden characters shown), where it runs, and why it asks. */
async function askToRun(request: ConfirmRequest): Promise<boolean> {
  const why = request.reasons.length ? ('\n\n' + vscode.l10n.t('Asking because {0}.', request.reasons.join('; and '))) : '';
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} wants to run a command', request.agentName),
    { modal: true, detail: vscode.l10n.t('{0}\n\nin {1}{2}', request.commandLine, request.cwd, why) },
    vscode.l10n.t('Run'),
  );
  return choice === vscode.l10n.t('Run');
}
