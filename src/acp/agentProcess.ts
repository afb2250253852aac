import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as os from 'node:os';
import { LineSplitter } from './lineFraming';
import * as l10n from '@vscode/l10n';

export interface LaunchSpec {
  command: string;
  args: readonly string[];
  /** Merged over the inherited environment. */
  env?: Readonly<Record<string, string>>;
  cwd: string;
  /**
   * `belowNormal`: the agent, and every command it runs (they inherit it), yields the CPU to the editor when both want
   * it. Unset: the priority Howdah runs at.
   */
  priority?: AgentPriority;
}

export type AgentPriority = 'normal' | 'belowNormal';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

const STDERR_TAIL_LINES = 200;
const STDERR_LINE_MAX = 8 * 1024;
const STOP_GRACE_MS = 2000;

/**
 * The agent's OS process: started from an argv array (never through a shell), stdio piped, stderr split into lines
 * that go to the log and to a ring buffer of the last 200 for error messages. On POSIX it leads its own process group
 * so stopping it takes its children along.
 */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<ExitInfo>;
  private readonly tail: string[] = [];
  private exitInfo: ExitInfo | undefined;
  private readonly groupKill = process.platform !== 'win32';

  constructor(spec: LaunchSpec, onStderrLine: (line: string) => void) {
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: this.groupKill,
      windowsHide: true,
    });
    // At once, before the agent has started anything that would keep the old priority.
    if (spec.priority === 'belowNormal' && this.child.pid !== undefined) {
      const failure = lowerPriority(this.child.pid);
      if (failure) onStderrLine(l10n.t('[Howdah could not lower the agent\'s priority: {0}]', failure));
    }
    const stderr = new LineSplitter(
      {
        line: (text) => {
          const line = text.length > STDERR_LINE_MAX ? l10n.t('{0}… ({1} chars)', text.slice(0, STDERR_LINE_MAX), text.length) : text;
          this.tail.push(line);
          if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
          onStderrLine(line);
        },
        oversized: (error) => onStderrLine(`[stderr line dropped: ${error.message}]`),
      },
      1024 * 1024,
    );
    this.child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    this.child.stderr.on('end', () => stderr.end());
    // Writing to an agent that died raises EPIPE on stdin; the exit path reports it.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      const finish = (info: ExitInfo) => {
        if (this.exitInfo) return;
        this.exitInfo = info;
        resolve(info);
      };
      this.child.on('exit', (code, signal) => finish({ code, signal }));
      // spawn failures (ENOENT, EACCES) never emit 'exit'.
      this.child.on('error', (error: NodeJS.ErrnoException) => {
        this.tail.push(`${error.code ?? 'error'}: ${error.message}`);
        onStderrLine(`Could not start ${spec.command}: ${error.message}`);
        finish({ code: null, signal: null });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last lines the agent wrote to stderr. */
  stderrTail(lines = STDERR_TAIL_LINES): string[] {
    return this.tail.slice(-lines);
  }

  /** Close stdin, give the agent up to 2 s to leave, then kill its whole process group. */
  async stop(graceMs = STOP_GRACE_MS): Promise<ExitInfo> {
    if (!this.exitInfo) {
      this.child.stdin.end();
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
      if ((await Promise.race([this.exited, timer])) === 'timeout') this.kill('SIGKILL');
    } else {
      // The leader is gone but children it started may live on in its group.
      this.kill('SIGKILL');
    }
    return this.exited;
  }

  kill(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (this.groupKill) process.kill(-pid, signal);
      else this.child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Sets `pid` to the below-normal priority (nice 10 on POSIX, the below-normal class on Windows; Node maps one onto the
 * other), never raising it: a process already lower (Howdah itself niced further) stays as it is. The reason it failed,
 * or undefined.
 */
function lowerPriority(pid: number): string | undefined {
  const target = os.constants.priority.PRIORITY_BELOW_NORMAL;
  try {
    if (os.getPriority(pid) < target) os.setPriority(pid, target);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
