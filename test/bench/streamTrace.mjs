// What a stream's devtools trace (stream.mjs, STREAM_PROFILE) says about the renderer's main thread: its tasks' wall
// time against the time the thread really ran (the trace's thread clock). On a machine whose cores the agent, the
// extension host and Chromium's other processes keep busy, a task lasts longer than its work by the time its thread
// waited for a core; a long task's thread time says how much of it was the page's and the workbench's own work.

const isTask = (e) => e.ph === 'X' && e.tid === e.pid && e.dur !== undefined && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
const sum = (tasks, i) => tasks.reduce((total, task) => total + task[i], 0);

/**
 * Of the main thread with the most task time in `events` (a trace's events; it may hold other processes' threads):
 * how many tasks took over 50 ms of wall time, the most and the median thread time among those, and the wall and
 * thread time of all its tasks (ms).
 */
export function traceTaskSummary(events) {
  const byThread = new Map();
  for (const e of events) {
    if (!isTask(e)) continue;
    if (!byThread.has(e.pid)) byThread.set(e.pid, []);
    byThread.get(e.pid).push([e.dur / 1000, (e.tdur ?? e.dur) / 1000]);
  }
  const tasks = [...byThread.values()].sort((a, b) => sum(b, 0) - sum(a, 0))[0] ?? [];
  const long = tasks.filter(([wall]) => wall > 50).map(([, thread]) => thread).sort((a, b) => a - b);
  return {
    over50: long.length,
    longThreadMax: long.at(-1) ?? 0,
    longThreadMedian: long.length ? long[Math.floor(long.length / 2)] : 0,
    wallMs: sum(tasks, 0),
    threadMs: sum(tasks, 1),
  };
}
