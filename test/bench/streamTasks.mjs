// What the stream bench (stream.mjs) reads of a stream's main-thread work from the probes in the page
// (streamProbes.mjs): its long tasks, split at the agent's last write, and its long animation frames.
import { log } from '../harness/timing.mjs';
import { threadMs as ms } from './streamSched.mjs';

/** Long tasks of a frame (as [start ms since the epoch, duration]) since `from`. */
export const longTasks = (frame, from) => frame.evaluate((t) => (window.__bench?.longtasks ?? []).filter(([start]) => start >= t), from);

/**
 * Long animation frames (streamProbes.mjs) since `from`, as the workbench page sees them: the renderer reports them to
 * the top frame, with the webview's scripts in them (its own frame gets none).
 */
export const longFrames = (frame, from) => frame.evaluate((t) => (window.__bench?.frames ?? []).filter((f) => f.start >= t), from);

/**
 * The longest animation frame while streaming, and what it spent its time on (zeros when there was none), with how
 * long its thread ran and waited for a core in it, and how long the extension host's main thread ran meanwhile
 * (`threadIn(frame)`: { ran, waited, hostRan } in ms). Frames over 50 ms are logged with when they came (ms after Send,
 * `sent`, or after the last write, `split`), to tell whose work they held.
 */
export function longestFrame(frames, sent, split, threadIn) {
  for (const f of frames) Object.assign(f, threadIn(f));
  const line = (f) => `${f.duration.toFixed(0)} ms: scripts ${f.script.toFixed(0)} (forced style+layout ${f.forced.toFixed(0)}), style+layout+paint ${f.render.toFixed(0)}; its thread ran ${ms(f.ran)}, waited for a core ${ms(f.waited)} (the extension host ran ${ms(f.hostRan)}); longest script: ${f.longest}`;
  const during = frames.filter((f) => f.start < split).sort((a, b) => b.duration - a.duration);
  for (const f of during.filter((f) => f.duration > 50)) log(`  long frame ${(f.start - sent).toFixed(0)} ms after Send, ${line(f)}`);
  for (const f of frames.filter((f) => f.start >= split && f.duration > 50)) log(`  long frame ${(f.start - split).toFixed(0)} ms after the last write, ${line(f)}`);
  return during[0] ?? { duration: 0, script: 0, forced: 0, render: 0, ran: 0, waited: 0 };
}

/** The longest task before `split` (streaming) and from it on (completion), and how many took over 50 ms. */
export function summarizeTasks(tasks, split) {
  const during = tasks.filter(([start]) => start < split).map(([, d]) => d);
  const after = tasks.filter(([start]) => start >= split).map(([, d]) => d);
  return {
    longestStreaming: Math.max(0, ...during),
    longestCompletion: Math.max(0, ...after),
    over50: tasks.filter(([, d]) => d > 50).length,
  };
}

/** Logs each task over 50 ms, when it came and how long its thread ran and waited for a core in it (as above). */
export function logLongTasks(tasks, sent, split, threadIn) {
  for (const [start, duration] of tasks.filter(([, d]) => d > 50)) {
    const when = start < split ? `while streaming, ${(start - sent).toFixed(0)} ms after Send` : `${(start - split).toFixed(0)} ms after the last write`;
    const { ran, waited, hostRan } = threadIn({ start, duration });
    log(`  long task ${duration.toFixed(0)} ms ${when}: its thread ran ${ms(ran)} ms and waited ${ms(waited)} ms for a core; the extension host ran ${ms(hostRan)} ms meanwhile`);
  }
}
