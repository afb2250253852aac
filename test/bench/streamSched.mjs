// How long a thread of the stream bench's processes ran, and how long it was ready to run but waited for a core, from
// the kernel's scheduler statistics (/proc/<pid>/task/<tid>/schedstat: ns on a CPU, ns waiting on a run queue).
// A long animation frame whose scripts and rendering are short, but whose main thread waited for a core for most of
// it, is long because of the machine's load, not because of the page's work.
import fs from 'node:fs';

/** STREAM_SCHED_MS=<ms>: how often the stream bench samples (default 8; 0: at a stream's start and end only). */
const SAMPLE_MS = Number(process.env.STREAM_SCHED_MS ?? 8);
if (!(SAMPLE_MS >= 0)) throw new Error(`STREAM_SCHED_MS must be a number of milliseconds, 0 or more (got "${process.env.STREAM_SCHED_MS}")`);

/** Samples further apart than this (ms) tell nothing of the times between them. */
const MAX_GAP_MS = 100;

/** [ms on a CPU, ms waiting for one] of a process's main thread, or undefined once it is gone. */
function schedstat(pid) {
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return [run / 1e6, wait / 1e6];
  } catch {
    return undefined;
  }
}

/**
 * Samples the main threads of `pids` every `everyMs` from now until `stop()`, with `clock` (ms since the epoch, the
 * pages' timestamps). `stop()` returns a reader of the ms a thread ran and waited between two times (interpolated
 * between samples, so a few ms either way; NaN where that is not known), and which of some threads ran most. The
 * sampling itself costs about 2% of a core at 8 ms (4% at 4 ms); `everyMs` 0 samples at the start and at `stop()` only
 * (so only that whole span is known).
 */
export function sampleScheduler(pids, clock, everyMs = SAMPLE_MS) {
  const samples = new Map(pids.map((pid) => [pid, []]));
  const take = () => {
    const t = clock();
    for (const pid of pids) {
      const s = schedstat(pid);
      if (s) samples.get(pid).push([t, s[0], s[1]]);
    }
  };
  take();
  const timer = everyMs > 0 ? setInterval(take, everyMs) : undefined;
  return {
    stop() {
      clearInterval(timer);
      take();
      const at = (series, t, i) => {
        if (t <= series[0][0]) return series[0][i];
        for (let k = 1; k < series.length; k++) {
          const [t1] = series[k];
          if (t1 >= t) {
            const [t0] = series[k - 1];
            // (inside a long gap between samples, a straight line says nothing of when the thread ran)
            if (t1 - t0 > MAX_GAP_MS && t !== t1) return NaN;
            const f = t1 === t0 ? 1 : (t - t0) / (t1 - t0);
            return series[k - 1][i] + f * (series[k][i] - series[k - 1][i]);
          }
        }
        return series[series.length - 1][i];
      };
      // (NaN for a time outside the sampled span: what the thread did then is not known)
      const between = (pid, from, toAsked) => {
        // (the agent's and the page's clocks can differ by a ms or two: a span that ends before it starts is empty)
        const to = Math.max(from, toAsked);
        const series = samples.get(pid) ?? [];
        if (!series.length || from < series[0][0] - 1 || to > series[series.length - 1][0] + 1) return { ran: NaN, waited: NaN };
        return { ran: at(series, to, 1) - at(series, from, 1), waited: at(series, to, 2) - at(series, from, 2) };
      };
      /** Of `candidates`, the thread that ran most between two times (the busy renderer: the workbench's, which
       * the webview's frame shares here). */
      const busiest = (candidates, from, to) => {
        const ran = (pid) => between(pid, from, to).ran;
        return candidates.reduce((best, pid) => (ran(pid) > ran(best) ? pid : best), candidates[0]);
      };
      return { between, busiest };
    },
  };
}

/** A thread's ms as a whole number, or "n/a" where the sampling cannot tell (see `between`). */
export const threadMs = (x) => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');
