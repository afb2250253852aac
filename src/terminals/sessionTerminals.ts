import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import type { TerminalOutputResult } from '../acp/clientHandlers';
import { ErrorCode, RpcError } from '../acp/errors';
import type { CreateTerminalParams, TerminalExitStatus, TerminalParams } from '../acp/schema/clientMethods';
import { Sandbox } from '../workspace/sandbox';
import { classifyCommand, sameCommand, type Classification } from './commandClassifier';
import { planLaunch } from './launchPlan';
import { DEFAULT_OUTPUT_LIMIT, ManagedTerminal } from './managedTerminal';
import type { TerminalRegistry } from './terminalRegistry';
import * as l10n from '@vscode/l10n';

/**
 * The `terminal/*` methods for one session, without VS Code: everything an agent's command goes through before and
 * after it starts. The editor side (settings, the modal question, the VS Code terminal) comes in through `ports`.
 * Before spawning: the cwd is checked by the workspace sandbox, the command is classified (refused, asked, or run),
 * and `howdah.terminal: ask` asks for every command.
 */

const MAX_OUTPUT_LIMIT = 64 * 1024 * 1024;

export interface TerminalSettings {
  /** `howdah.terminal` */
  mode: 'allow' | 'ask' | 'off';
  /** `howdah.commands.deny` */
  deny: readonly string[];
  /** `howdah.commands.ask` */
  ask: readonly string[];
}

export interface ConfirmRequest {
  /** The full command, hidden characters shown. */
  commandLine: string;
  cwd: string;
  /** Why it asks: the rules that matched, or the setting. Empty when the setting asks for every command. */
  reasons: string[];
  /** Who wants to run it. */
  agentName: string;
}

export interface TerminalPorts {
  settings(): TerminalSettings;
  /** Asks the user; true runs the command. */
  confirm(request: ConfirmRequest, signal: AbortSignal): Promise<boolean>;
  /** The command started: mirror it where the user sees it. */
  show?(terminal: ManagedTerminal): void;
  /** Command lines the user already allowed through the agent's own permission prompts in this session. */
  approvedCommands?(): Iterable<string>;
  /** Something the user should fix (a pattern in the settings that cannot be read). */
  warn?(message: string): void;
}

export interface SessionTerminalsOptions {
  agentName: string;
  /** The session's cwd: the default for a command's cwd. */
  cwd: string;
  /** The session's roots, which a command's cwd must be inside. */
  roots: readonly string[];
  /** The session's environment (the agent's); a command's `env` is merged over it. */
  env: Readonly<Record<string, string | undefined>>;
  ports: TerminalPorts;
  registry: TerminalRegistry;
  /** Time a process gets between SIGTERM and SIGKILL. */
  graceMs?: number;
}

export class SessionTerminals {
  private readonly terminals = new Map<string, ManagedTerminal>();
  private readonly sandbox: Sandbox;
  private disposed = false;
  private readonly warned = new Set<string>();

  constructor(private readonly options: SessionTerminalsOptions) {
    this.sandbox = new Sandbox(options.roots);
  }

  async createTerminal(params: CreateTerminalParams, signal: AbortSignal): Promise<{ terminalId: string }> {
    if (this.disposed) throw new RpcError(ErrorCode.invalidRequest, 'The session has ended.');
    const settings = this.options.ports.settings();
    if (settings.mode === 'off') throw new RpcError(ErrorCode.invalidRequest, 'Running commands is turned off in this editor (howdah.terminal).');
    if (!params.command.trim()) throw RpcError.invalidParams('The command is empty.');
    const cwd = await this.checkCwd(params.cwd ?? this.options.cwd);
    const args = params.args ?? undefined;
    const verdict = classifyCommand(params.command, args, { deny: settings.deny, ask: settings.ask, home: os.homedir() });
    this.reportProblems(verdict);
    if (verdict.verdict === 'deny') throw refusal(verdict);
    const asks = settings.mode === 'ask' || (verdict.verdict === 'ask' && !this.approved(params.command, args, verdict.display));
    if (asks) {
      const request: ConfirmRequest = { commandLine: verdict.display, cwd, reasons: verdict.hits.map((h) => h.reason), agentName: this.options.agentName };
      const allowed = await abortable(this.options.ports.confirm(request, signal), signal);
      if (!allowed) {
        throw RpcError.invalidParams(`The user declined to run ${verdict.display}. Do not retry it; ask the user what to do instead.`, { reason: 'declined' });
      }
    }
    if (this.disposed) throw new RpcError(ErrorCode.invalidRequest, 'The session has ended.');
    const env = mergeEnv(this.options.env, params.env ?? []);
    const plan = planLaunch(params.command, args, { env });
    const id = this.options.registry.newId();
    let terminal: ManagedTerminal;
    try {
      terminal = await ManagedTerminal.start({
        id,
        commandLine: verdict.display,
        plan,
        cwd,
        env,
        // Whatever the agent asks for, memory stays bounded: a larger limit still keeps the last 64 MB.
        outputByteLimit: Math.min(params.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT, MAX_OUTPUT_LIMIT),
        graceMs: this.options.graceMs,
      });
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${plan.file} was not found` : (error as Error).message;
      throw RpcError.internal(`Could not start ${verdict.display}: ${reason}`);
    }
    if (this.disposed) {
      // The session ended while the command was starting: it must not outlive it.
      await terminal.release();
      throw new RpcError(ErrorCode.invalidRequest, 'The session has ended.');
    }
    this.terminals.set(id, terminal);
    this.options.registry.add(terminal);
    this.options.ports.show?.(terminal);
    return { terminalId: id };
  }

  async terminalOutput(params: TerminalParams): Promise<TerminalOutputResult> {
    return this.get(params).read();
  }

  async waitForTerminalExit(params: TerminalParams, signal: AbortSignal): Promise<TerminalExitStatus> {
    const status = await abortable(this.get(params).waitForExit(), signal);
    return { exitCode: status.exitCode, signal: status.signal };
  }

  async killTerminal(params: TerminalParams): Promise<void> {
    await this.get(params).kill();
    this.options.registry.touch(params.terminalId);
  }

  async releaseTerminal(params: TerminalParams): Promise<void> {
    const terminal = this.get(params);
    this.terminals.delete(params.terminalId);
    await terminal.release();
    this.options.registry.touch(params.terminalId);
  }

  /** Releases every terminal of the session (session ended, agent exited): their process trees die. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(
      all.map(async (t) => {
        await t.release();
        this.options.registry.touch(t.id);
      }),
    );
  }

  /** For shutdown, when nothing can be awaited: SIGKILL to every tree. */
  disposeNow(): void {
    this.disposed = true;
    for (const t of this.terminals.values()) t.killNow();
    this.terminals.clear();
  }

  /** Ids of this session's terminals that the agent has not released. */
  ids(): string[] {
    return [...this.terminals.keys()];
  }

  private get(params: TerminalParams): ManagedTerminal {
    const terminal = this.terminals.get(params.terminalId);
    if (!terminal) throw RpcError.invalidParams(`Unknown terminal ${JSON.stringify(params.terminalId)} (never created in this session, or released).`);
    return terminal;
  }

  private async checkCwd(requested: string): Promise<string> {
    const real = await this.sandbox.resolve(requested, 'cwd');
    const stat = await fs.stat(real).catch(() => undefined);
    if (!stat?.isDirectory()) throw RpcError.invalidParams(`Refused working directory ${JSON.stringify(requested)}: it is not a directory.`, { path: requested });
    return real;
  }

  /** Allowed through the agent's own permission prompt: the exact command, however the agent spelled it. */
  private approved(command: string, args: readonly string[] | undefined, display: string): boolean {
    const forms = [display, [command, ...(args ?? [])].join(' ')];
    for (const approved of this.options.ports.approvedCommands?.() ?? []) {
      if (forms.some((f) => sameCommand(f, approved))) return true;
    }
    return false;
  }

  private reportProblems(verdict: Classification): void {
    for (const problem of verdict.problems) {
      if (this.warned.has(problem)) continue;
      this.warned.add(problem);
      this.options.ports.warn?.(l10n.t('A command pattern in the settings cannot be read: {0}', problem));
    }
  }
}

function refusal(verdict: Classification): RpcError {
  const hit = verdict.hits.find((h) => h.verdict === 'deny')!;
  return RpcError.invalidParams(
    `Howdah refused to run ${verdict.display}: ${hit.reason}. Commands like this never run from an agent. ` +
      'Do not try another way to do the same; if it is really needed, ask the user to run it themselves.',
    { reason: 'denied', rule: hit.rule },
  );
}

/** `env` entries over the session's environment; a later entry with the same name wins. */
export function mergeEnv(base: Readonly<Record<string, string | undefined>>, entries: readonly { name: string; value: string }[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const { name, value } of entries) env[name] = value;
  return env;
}

/** The promise, or a -32800 rejection as soon as the agent cancels the request. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(RpcError.cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(RpcError.cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Command lines the user allowed through the agent's permission prompts: tool calls whose answer was an allow option,
 * with the command taken from `rawInput.command` (a string or an argv), `rawInput.cmd`, or a title that is just the
 * command in backquotes.
 */
export function approvedCommandLines(toolCalls: Iterable<{ rawInput?: unknown; title?: string; permissionAnswer?: { kind: string } | 'cancelled' }>): string[] {
  const out: string[] = [];
  for (const call of toolCalls) {
    const answer = call.permissionAnswer;
    if (!answer || answer === 'cancelled' || !answer.kind.startsWith('allow')) continue;
    const input = typeof call.rawInput === 'object' && call.rawInput !== null ? (call.rawInput as Record<string, unknown>) : {};
    for (const value of [input.command, input.cmd]) {
      if (typeof value === 'string') out.push(value);
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        out.push(value.join(' '));
        // Codex: ["bash", "-lc", "<script>"].
        if (value.length === 3 && /^-[a-z]*c$/.test(value[1])) out.push(value[2]);
      }
    }
    const quoted = /^`([^`]+)`$/.exec(call.title?.trim() ?? '');
    if (quoted) out.push(quoted[1]);
  }
  return out;
}
