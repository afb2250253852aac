import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { StreamText } from './outputBuffer';

/**
 * A command's process and everything it starts. On POSIX it is spawned detached, which makes it the leader of a new
 * session and process group; stopping it signals that whole group (and, on Linux, every process still in its session
 * or below it in the tree, for children that moved to a group of their own): SIGTERM first, SIGKILL after a grace
 * period, so a process that ignores SIGTERM or leaves children behind still goes. stdin is /dev/null: nobody can
 * type into it, and a command that waits for input gets end-of-file instead of hanging. Pure Node: no `vscode`.
 */

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface StartSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Windows `cmd.exe /c "…"`: pass the command line unquoted. */
  verbatim?: boolean;
}

/** After the leader exits, how long output still in the pipes may take to arrive (a background child may hold them). */
const DRAIN_MS = 300;
const POLL_MS = 25;
export const DEFAULT_GRACE_MS = 2000;

export class ProcessTree {
  private status: ExitStatus | undefined;
  private killing: Promise<void> | undefined;
  private gone = false;
  /** Resolves once the leader exited and its output was read (or stopped arriving). */
  readonly exited: Promise<ExitStatus>;
  private readonly groupKill = process.platform !== 'win32';

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    onOutput: (text: string) => void,
  ) {
    const streams = [child.stdout, child.stderr].filter((s) => s !== null);
    for (const stream of streams) {
      const text = new StreamText();
      stream.on('data', (chunk: Buffer) => {
        const decoded = text.write(chunk);
        if (decoded) onOutput(decoded);
      });
      stream.on('end', () => {
        const rest = text.end();
        if (rest) onOutput(rest);
      });
      // A read error ends the stream; the exit status still comes.
      stream.on('error', () => {});
    }
    this.exited = new Promise((resolve) => {
      let exitedWith: ExitStatus | undefined;
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        if (timer) clearTimeout(timer);
        if (exitedWith) resolve(exitedWith);
      };
      child.on('exit', (code, signal) => {
        exitedWith = { exitCode: code, signal };
        this.status = exitedWith;
        // Nothing left in the group: never signal it again, as its id may be given to an unrelated process.
        if (!this.treeAlive()) this.gone = true;
        timer = setTimeout(settle, DRAIN_MS);
      });
      child.on('close', settle);
    });
  }

  /** Starts the command; rejects when it cannot start (no such program, no permission, bad cwd). */
  static start(spec: StartSpec, onOutput: (text: string) => void): Promise<ProcessTree> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(spec.file, [...spec.args], {
          cwd: spec.cwd,
          env: spec.env,
          stdio: ['ignore', 'pipe', 'pipe'],
          shell: false,
          detached: process.platform !== 'win32',
          windowsHide: true,
          windowsVerbatimArguments: spec.verbatim,
        });
      } catch (error) {
        reject(error);
        return;
      }
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        // Later errors (a failed kill) change nothing: the exit event tells what happened.
        child.on('error', () => {});
        resolve(new ProcessTree(child, child.pid!, onOutput));
      });
    });
  }

  /** The leader's own exit code or signal, once it exited. */
  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  get running(): boolean {
    return this.status === undefined;
  }

  /**
   * Stops the whole tree: SIGTERM, then SIGKILL to whatever is left after `graceMs`. Also cleans up after a leader
   * that already exited but left children. Resolves with the leader's exit status once the tree is gone.
   */
  kill(graceMs = DEFAULT_GRACE_MS): Promise<ExitStatus> {
    this.killing ??= this.terminate(graceMs);
    return this.killing.then(() => this.exited);
  }

  /** SIGKILL to the whole tree, now, without waiting: for shutdown, when there is no time for a grace period. */
  killNow(): void {
    if (this.treeAlive()) this.signalTree('SIGKILL');
  }

  /** True while the leader or anything it started runs. */
  treeAlive(): boolean {
    if (this.gone) return false;
    if (this.running) return true;
    let alive: boolean;
    if (process.platform === 'linux') alive = treeMembers(this.pid, false).length > 0;
    else if (!this.groupKill) alive = false;
    else {
      try {
        process.kill(-this.pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
    }
    if (!alive) this.gone = true;
    return alive;
  }

  private async terminate(graceMs: number): Promise<void> {
    if (this.gone) return;
    this.signalTree('SIGTERM');
    if (!(await this.waitGone(graceMs))) {
      this.signalTree('SIGKILL');
      await this.waitGone(2000);
    }
    this.gone = !this.treeAlive();
  }

  private async waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (!this.treeAlive()) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private signalTree(signal: NodeJS.Signals): void {
    if (process.platform === 'win32') {
      // taskkill /T follows the parent links Windows keeps; there is no SIGTERM to send, so it is always forced.
      try {
        spawn('taskkill', ['/pid', String(this.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
      } catch {
        // taskkill missing: the leader at least.
      }
      this.child.kill();
      return;
    }
    // Members found before the group signal: a child that left the group is still in the session or the tree.
    const members = process.platform === 'linux' ? treeMembers(this.pid, this.running) : [];
    try {
      process.kill(-this.pid, signal);
    } catch {
      // The group is empty.
    }
    for (const pid of members) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
}

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
}

/**
 * Linux: the live processes that belong to the tree started as `leader` (a session and group leader): those in its
 * session or group, and the descendants of any of them (or of the leader while it runs). Zombies do not count: they
 * are already dead and only wait for their parent.
 */
export function treeMembers(leader: number, leaderRuns = true): number[] {
  const all = readProcTable();
  const members = new Set<number>();
  for (const p of all) {
    if (p.state === 'Z') continue;
    // Once the leader exited, its pid may belong to someone else; its group and session ids cannot, while in use.
    if (p.session === leader || p.pgrp === leader || (leaderRuns && p.pid === leader)) members.add(p.pid);
  }
  const children = new Map<number, number[]>();
  for (const p of all) {
    if (p.state === 'Z') continue;
    const list = children.get(p.ppid);
    if (list) list.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const queue = leaderRuns ? [leader, ...members] : [...members];
  while (queue.length) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (!members.has(child)) {
        members.add(child);
        queue.push(child);
      }
    }
  }
  members.delete(process.pid);
  return [...members];
}

function readProcTable(): ProcStat[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** One line of /proc/<pid>/stat; the command name may hold spaces and parentheses, so fields count from the last `)`. */
export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) };
}

/** True while `pid` runs (a zombie does not). */
export function processAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    const stat = readStat(pid);
    return !!stat && stat.state !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
