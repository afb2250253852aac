// The stream bench's timing of New Session (stream.mjs), and the stress agent's own record of what it did when.
import fs from 'node:fs';
import { newSession } from '../harness/panel.mjs';
import { log } from '../harness/timing.mjs';
import { sampleScheduler, threadMs } from './streamSched.mjs';
import { longFrames } from './streamTasks.mjs';

/** ms since the epoch, the clock of the agent's record and of the page's probes (the same machine's). */
export const now = () => performance.timeOrigin + performance.now();

/** The agent's recorded events since `from` (ms since the epoch), by name: the latest of each. */
export function agentTimes(file, from) {
  const out = {};
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.t >= from) out[e.event] = e;
  }
  return out;
}

/**
 * New Session → the panel ready to type (the header names the agent, no "starting…", the prompt box shown). `threads`
 * names the main threads to watch ({ host, renderers }: pids): how long each ran and waited for a core between the
 * agent's answer and the snapshot in the page is logged with the timing.
 */
export async function timeNewSession(page, wv, frame, timesFile, threads) {
  await frame.evaluate(() => Object.assign(window.__bench, { snapshotAt: null, patchesBefore: 0, fillsBefore: 0 }));
  const ready = frame.evaluate(() => window.__bench.whenReady('Stress agent'));
  const scheduler = sampleScheduler([threads.host, ...threads.renderers], now);
  const clicked = now();
  await newSession(wv);
  const readyAt = await ready;
  const sched = scheduler.stop();
  const { snapshotAt = NaN, patchesBefore, fillsBefore } = await frame.evaluate(() => ({ snapshotAt: window.__bench.snapshotAt ?? undefined, patchesBefore: window.__bench.patchesBefore, fillsBefore: window.__bench.fillsBefore }));
  const answered = agentTimes(timesFile, clicked)['session-new-answered']?.t ?? NaN;
  // what kept the window's frames long between the agent's answer and the page ready (logged, not reported)
  for (const f of (await longFrames(page.mainFrame(), answered)).filter((f) => f.start < readyAt)) {
    log(`  New Session: long frame ${Math.round(f.duration)} ms, ${Math.round(f.start - answered)} ms after the answer: scripts ${Math.round(f.script)}; longest script: ${f.longest}`);
  }
  const result = { clickToReady: readyAt - clicked, answerToReady: readyAt - answered, answerToSnapshot: snapshotAt - answered, snapshotToReady: readyAt - snapshotAt };
  const host = sched.between(threads.host, answered, snapshotAt);
  const renderer = sched.between(sched.busiest(threads.renderers, answered, snapshotAt), answered, snapshotAt);
  const thread = (name, t) => `${name} ran ${threadMs(t.ran)} and waited ${threadMs(t.waited)} ms`;
  log(`  New Session: answered → ready ${Math.round(result.answerToReady)} ms (its snapshot in the page after ${Math.round(result.answerToSnapshot)} ms: ${thread('the extension host', host)}, ${thread('the renderer', renderer)}; before it ${patchesBefore} patches of the session in front, ${fillsBefore} with a flood's fills)`);
  return result;
}
