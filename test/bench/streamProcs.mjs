// Process figures for the stream bench, from /proc: CPU time and RSS of the extension host and of Chromium's renderers.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
const cmdline = (pid) => read(`/proc/${pid}/cmdline`).split('\0').join(' ');

/** Every live process below `root`. */
export function descendants(root) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const out = [];
  for (const queue = [root]; queue.length;) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The extension host code-server `serverPid` runs. */
export function extensionHost(serverPid) {
  const pid = descendants(serverPid).find((p) => /--type=extensionHost/.test(cmdline(p)));
  if (!pid) throw new Error('no extension host process below the server');
  return pid;
}

export function renderers(pids) {
  return pids.filter((p) => /--type=renderer/.test(cmdline(p))).map((pid) => ({ pid, ...procStats(pid) }));
}

/** The CPU time (user + system, ms) in a process's or a thread's `stat` text. */
const cpuMsOf = (stat) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
};

/** CPU time (user + system) in ms and resident memory in MiB. */
export function procStats(pid) {
  const cpuMs = cpuMsOf(read(`/proc/${pid}/stat`));
  const rss = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
  return { cpuMs, rssMiB: rss ? Number(rss[1]) / 1024 : NaN };
}

/** What a process below the bench is, from its command line (for the CPU split of a stream). */
function role(pid, serverPid) {
  const line = cmdline(pid);
  if (/stress-agent/.test(line)) return 'agent';
  if (/--type=extensionHost/.test(line)) return 'extensionHost';
  if (/--type=renderer/.test(line)) return 'renderer';
  if (/--type=gpu-process/.test(line)) return 'gpu';
  if (/chrom(e|ium)|headless_shell/i.test(line)) return 'chromium';
  if (pid === serverPid || /code-server|server-main|ptyHost|fileWatcher/.test(line)) return 'server';
  return 'other';
}

/**
 * CPU time (ms) of every process below `root`, in one walk of /proc: `byRole`, summed by role (the stress agent, the
 * extension host, code-server's other processes, Chromium's renderers, its GPU process (the display compositor: every
 * frame the window draws, drawn in software here) and its other processes), and `byThread`, summed by
 * "<process role>:<thread name>". Two of these, subtracted, say where a stream's CPU went.
 */
export function cpuSnapshot(root, serverPid) {
  const byRole = { agent: 0, extensionHost: 0, server: 0, renderer: 0, gpu: 0, chromium: 0, other: 0 };
  const byThread = new Map();
  for (const pid of descendants(root)) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    const of = role(pid, serverPid);
    // (a process's own figure includes its threads that have ended)
    byRole[of] += cpuMsOf(stat);
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const thread = read(`/proc/${pid}/task/${tid}/stat`);
      if (!thread) continue;
      const key = `${of}:${thread.slice(thread.indexOf('(') + 1, thread.lastIndexOf(')')).replace(/\d+$/, '')}`;
      byThread.set(key, (byThread.get(key) ?? 0) + cpuMsOf(thread));
    }
  }
  return { byRole, byThread };
}
