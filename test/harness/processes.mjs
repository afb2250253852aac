// Process hygiene for a test run: every server starts in its own process group, every group is killed
// when the run ends, fails or is interrupted, and afterwards /proc is searched for anything of ours
// that is still alive (a process whose command line or environment names the run's private folder).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { log } from './timing.mjs';

const groups = new Set();   // process-group ids we started and have not stopped yet
const markers = new Set();  // run folders: any process mentioning one belongs to us
const exitTasks = [];       // synchronous last words (remove a run folder), after the processes are killed
let hooked = false;

const sleep = ms => new Promise(r => setTimeout(r, ms));

function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch { return false; }
}

function signalGroup(pgid, signal) {
  try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

/** Spawns `command` as the leader of a new process group, output appended to `logFile`. */
export function spawnGroup(command, args, { env, cwd, logFile } = {}) {
  installCleanupHooks();
  const fd = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', fd, fd] });
  if (typeof fd === 'number') fs.closeSync(fd);
  if (child.pid) groups.add(child.pid);
  return child;
}

/** SIGTERM to the whole group, then SIGKILL if anything in it outlives `graceMs`. */
export async function stopGroup(pgid, graceMs = 3000) {
  signalGroup(pgid, 'SIGTERM');
  for (const deadline = Date.now() + graceMs; Date.now() < deadline && groupAlive(pgid);) await sleep(50);
  if (groupAlive(pgid)) {
    signalGroup(pgid, 'SIGKILL');
    for (const deadline = Date.now() + 2000; Date.now() < deadline && groupAlive(pgid);) await sleep(50);
  }
  groups.delete(pgid);
}

/** Declares `dir` (a run's private folder) as the mark of every process this run starts. */
export function markRun(dir) {
  installCleanupHooks();
  markers.add(dir);
}

function ancestors() {
  const set = new Set();
  for (let pid = process.pid; pid > 1;) {
    set.add(pid);
    try { pid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]); } catch { break; }
  }
  return set;
}

function readProc(pid, file) {
  try { return fs.readFileSync(`/proc/${pid}/${file}`, 'latin1'); } catch { return ''; }
}

/** Live (non-zombie) processes, other than this one and its ancestors, whose cmdline or environ contains `marker`. */
export function processesMentioning(marker) {
  const mine = ancestors();
  const found = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || mine.has(Number(name))) continue;
    const state = readProc(name, 'stat').replace(/^.*\) /, '')[0];
    if (!state || state === 'Z') continue;
    const cmdline = readProc(name, 'cmdline');
    if (cmdline.includes(marker) || readProc(name, 'environ').includes(marker)) {
      found.push({ pid: Number(name), cmd: cmdline.split('\0').join(' ').trim().slice(0, 200) });
    }
  }
  return found;
}

/**
 * Stops every group we started, then reports processes of this run that are still alive (giving
 * them `graceMs` to exit on their own, e.g. an agent noticing its closed stdin). Leftovers are
 * killed so the machine stays clean, and returned so the caller can fail the run.
 */
export async function stopEverything({ graceMs = 3000 } = {}) {
  for (const pgid of [...groups]) await stopGroup(pgid);
  let left = [];
  for (const deadline = Date.now() + graceMs; ;) {
    left = [...markers].flatMap(processesMentioning);
    if (left.length === 0 || Date.now() > deadline) break;
    await sleep(100);
  }
  for (const p of left) {
    log(`LEFT BEHIND: pid ${p.pid}: ${p.cmd}`);
    try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  }
  return left;
}

/** Registers a synchronous task for when the process exits or is interrupted, after the kill. */
export function atExit(fn) {
  installCleanupHooks();
  exitTasks.push(fn);
}

/** Last resort, synchronous: used from the process `exit` hook and the signal handlers. */
function killEverythingNow() {
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  for (const marker of markers) {
    for (const p of processesMentioning(marker)) {
      try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
    }
  }
  for (const fn of exitTasks.splice(0)) {
    try { fn(); } catch { /* best effort */ }
  }
}

/** Kill our process groups on exit, on SIGINT/SIGTERM/SIGHUP, and on a crash. Idempotent. */
export function installCleanupHooks() {
  if (hooked) return;
  hooked = true;
  process.on('exit', killEverythingNow);
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.on(signal, () => {
      log(`${signal}: stopping servers`);
      killEverythingNow();
      process.exit(code);
    });
  }
}
