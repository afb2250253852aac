import { stripAnsi } from '../shared/ansi';
import { Emitter, type Disposable } from '../base/event';
import type { LaunchPlan } from './launchPlan';
import { OutputBuffer } from './outputBuffer';
import { DEFAULT_GRACE_MS, ProcessTree, type ExitStatus } from './processTree';

/**
 * One command started for `terminal/create`: its process tree, the output the agent reads (within its byte limit), a
 * longer raw history for the VS Code terminal to replay (colours included), and events for whoever mirrors it. Pure
 * Node: the VS Code terminal is an adapter on top (`terminalView.ts`).
 */

/** When the agent sets no `outputByteLimit`: enough for any log an agent could use, bounded so memory is too. */
export const DEFAULT_OUTPUT_LIMIT = 16 * 1024 * 1024;
/** What a newly opened terminal view replays. */
export const REPLAY_LIMIT = 1024 * 1024;
/** What a released terminal keeps for the conversation to show. */
const RELEASED_REPLAY_LIMIT = 64 * 1024;
/** The tail the panel shows. */
export const TAIL_CHARS = 32 * 1024;

export interface TerminalStart {
  id: string;
  /** The command as the user sees it. */
  commandLine: string;
  plan: LaunchPlan;
  cwd: string;
  env: NodeJS.ProcessEnv;
  outputByteLimit?: number;
  graceMs?: number;
}

export interface TerminalOutput {
  output: string;
  truncated: boolean;
  exitStatus?: ExitStatus;
}

/** What the panel shows for a terminal: the end of its output as plain text, and whether it still runs. */
export interface TerminalTailView {
  output: string;
  truncated: boolean;
  exit?: { code: number | null; signal: string | null };
  running: boolean;
  commandLine?: string;
}

export class ManagedTerminal {
  readonly startedAt = Date.now();
  private released = false;
  private history = new OutputBuffer(REPLAY_LIMIT);
  private tailCache: { version: number; view: TerminalTailView } | undefined;
  private version = 0;
  private readonly data = new Emitter<string>();
  private readonly exit = new Emitter<ExitStatus>();
  /** Raw output as it arrives (colours and all). */
  readonly onData = this.data.event;
  /** The leader exited and its output was read. */
  readonly onExit = this.exit.event;

  private constructor(
    readonly id: string,
    readonly commandLine: string,
    readonly cwd: string,
    private readonly output: OutputBuffer,
    private readonly graceMs: number,
  ) {}

  private tree!: ProcessTree;

  /** Starts the command; rejects (with the spawn error) when it cannot start. */
  static async start(options: TerminalStart): Promise<ManagedTerminal> {
    const terminal = new ManagedTerminal(
      options.id,
      options.commandLine,
      options.cwd,
      new OutputBuffer(options.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT),
      options.graceMs ?? DEFAULT_GRACE_MS,
    );
    const start = (plan: LaunchPlan) =>
      ProcessTree.start({ file: plan.file, args: plan.args, cwd: options.cwd, env: options.env, verbatim: plan.verbatim }, (text) => terminal.append(text));
    try {
      terminal.tree = await start(options.plan);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!options.plan.fallback || (code !== 'ENOENT' && code !== 'EINVAL')) throw error;
      terminal.tree = await start(options.plan.fallback);
    }
    void terminal.tree.exited.then((status) => {
      terminal.version++;
      terminal.exit.fire(status);
    });
    return terminal;
  }

  get pid(): number {
    return this.tree.pid;
  }

  get running(): boolean {
    return this.tree.running;
  }

  get exitStatus(): ExitStatus | undefined {
    return this.tree.exitStatus;
  }

  get isReleased(): boolean {
    return this.released;
  }

  /** `terminal/output`: the retained output, whether some was dropped, and the exit status once it exited. */
  read(): TerminalOutput {
    const status = this.tree.exitStatus;
    return { output: this.output.text, truncated: this.output.truncated, ...(status ? { exitStatus: { ...status } } : {}) };
  }

  /** Resolves with the exit status once the command exited and its output was read. */
  waitForExit(): Promise<ExitStatus> {
    return this.tree.exited;
  }

  /** Ends the command and everything it started; the id stays valid (`terminal/kill`). */
  async kill(): Promise<void> {
    await this.tree.kill(this.graceMs);
  }

  /** Kills what still runs (also children a finished command left behind) and forgets the agent's output. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.tree.kill(this.graceMs);
    const kept = new OutputBuffer(RELEASED_REPLAY_LIMIT);
    kept.append(this.history.text);
    this.history = kept;
    this.version++;
  }

  /** For shutdown: SIGKILL to the tree without waiting. */
  killNow(): void {
    this.tree.killNow();
  }

  /** Everything a new view needs to catch up: the last megabyte of raw output. */
  replay(): string {
    return this.history.text;
  }

  /** The panel's view: the last characters of output, control sequences removed. Cached until something changes. */
  tail(): TerminalTailView {
    if (this.tailCache?.version === this.version) return this.tailCache.view;
    const raw = this.history.text;
    let from = Math.max(0, raw.length - TAIL_CHARS);
    if (from > 0 && (raw.charCodeAt(from) & 0xfc00) === 0xdc00) from++; // not half a surrogate pair
    const cut = raw.slice(from);
    const status = this.tree.exitStatus;
    const view: TerminalTailView = {
      output: stripAnsi(cut),
      truncated: raw.length > TAIL_CHARS || this.history.truncated,
      exit: status ? { code: status.exitCode, signal: status.signal } : undefined,
      running: !status,
      commandLine: this.commandLine,
    };
    this.tailCache = { version: this.version, view };
    return view;
  }

  /** Subscribes to output and exit at once; for views that follow the command. */
  follow(onData: (text: string) => void, onExit: (status: ExitStatus) => void): Disposable {
    const a = this.onData(onData);
    const b = this.onExit(onExit);
    return { dispose: () => (a.dispose(), b.dispose()) };
  }

  private append(text: string): void {
    const size = Buffer.byteLength(text, 'utf8');
    this.output.append(text, size);
    this.history.append(text, size);
    this.version++;
    this.data.fire(text);
  }
}
