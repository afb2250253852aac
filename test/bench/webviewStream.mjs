// The page-only stream benchmark at the sizes of issue 17: 1 MiB of Markdown in 20,000 chunks and 10 MiB in 200,000,
// delivered to the page the way the host does in VS Code (the agent writes the chunks as fast as it can, the host
// posts at most one patch per frame with everything that arrived since: an `append` of offset + delta; the last
// patch carries the rest of the text, the turn's end entry and `turn: idle`). The driver runs inside the page, so
// nothing between Node and Chromium is measured. For each run it reports:
//  - last chunk → final text visible: from posting the last patch to the first frame after the page has rendered
//    everything it was sent (its `settled` probe; pages without it: the answer is no longer live);
//  - the longest main-thread task while streaming and at completion (PerformanceObserver `longtask`, split at the
//    last patch), and how many tasks took > 50 ms;
//  - DOM elements in the page at the end (document.querySelectorAll('*')), once the page is quiet;
//  - visible → idle work done: until the virtualiser has no placeholder left to give its rendered text or lay out;
//    and the longest of its idle callbacks (a message, a keystroke or a click that comes meanwhile waits for it).
// Min/median/max over RUNS fresh pages; with `virtualize: false` the same runs with the transcript's block
// virtualisation off (window.__howdah.configure), for the side-by-side.

import stressMarkdown from '../../fixtures/stress-agent/markdown.js';

/** Fresh pages per size and mode. */
export const RUNS = 3;

/** A deterministic Markdown answer of `bytes` characters (the stress agent's): prose, lists, headings, code, tables. */
export const markdownText = (bytes, seed = 7) => stressMarkdown.markdown(bytes, seed);

/** `text` cut into `count` chunks of (nearly) equal size. */
export function chunked(text, count) {
  const size = Math.ceil(text.length / count);
  const chunks = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

const HEADER = { status: 'ready', sessionKey: 's1', agentName: 'Bench', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };

/** One fresh page, one streamed answer. */
export async function streamOnce(host, { chunks, agentMs, virtualize = true }) {
  const chat = await host.open({ width: 500, height: 900 });
  try {
    return await chat.page.evaluate(async ({ chunks, agentMs, virtualize, header }) => {
      const probe = window.__howdah;
      probe.configure?.({ virtualize });
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const quiet = (ms) => new Promise((r) => setTimeout(r, ms));
      window.postMessage({ type: 'snapshot', epoch: 1, header, entries: [{ kind: 'user', id: 1, text: 'Write a long answer.', attachments: [] }, { kind: 'agent', id: 2, text: '', blocks: [] }], plan: [], commands: [], turn: 'running', queue: [] }, '*');
      await quiet(0);
      probe.render();
      await frame();
      await frame();
      const settled = () => (probe.settled ? probe.settled() : !document.querySelector('.entry.agent.live'));
      const tasks = [];
      const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]); });
      observer.observe({ type: 'longtask' });
      // The host: one patch per ~frame with every chunk the agent wrote since (the agent writes agentMs long).
      const start = performance.now();
      let sent = 0;
      let offset = 0;
      let lastPost = 0;
      await new Promise((resolve) => {
        const tick = () => {
          const due = Math.min(chunks.length, Math.ceil(((performance.now() - start) / agentMs) * chunks.length));
          const ops = [];
          if (due > sent) {
            const delta = chunks.slice(sent, due).join('');
            ops.push({ op: 'append', index: 1, offset, delta });
            offset += delta.length;
            sent = due;
          }
          if (sent === chunks.length) {
            ops.push({ op: 'entry', index: 2, entry: { kind: 'turn-end', id: 3, stopReason: 'end_turn' } }, { op: 'turn', turn: 'idle' });
            window.postMessage({ type: 'patch', epoch: 1, ops }, '*');
            lastPost = performance.now();
            return resolve();
          }
          if (ops.length) window.postMessage({ type: 'patch', epoch: 1, ops }, '*');
          setTimeout(tick, 16);
        };
        tick();
      });
      // Final text visible: the first frame after the page has rendered all of it.
      await quiet(0);
      while (!document.querySelector('.entry.turn-end') || !settled()) await frame();
      await frame();
      const visibleAt = performance.now();
      const visibleMs = visibleAt - lastPost;
      const busy = () => probe.virtualizer?.().busy === true;
      for (const until = visibleAt + 60_000; busy() && performance.now() < until; ) await quiet(20);
      const idleDoneMs = performance.now() - visibleAt;
      const longestIdleMs = probe.virtualizer?.().longestPolishMs ?? NaN;
      await quiet(1500); // long tasks are delivered
      observer.disconnect();
      const streaming = tasks.filter(([t]) => t < lastPost);
      const completing = tasks.filter(([t]) => t >= lastPost);
      const longest = (list) => list.reduce((m, [, d]) => Math.max(m, d), 0);
      return {
        visibleMs,
        idleDoneMs,
        longestIdleMs,
        streamMs: lastPost - start,
        longestStreaming: longest(streaming),
        longestCompleting: longest(completing),
        over50: tasks.filter(([, d]) => d > 50).length,
        elements: document.querySelectorAll('*').length,
      };
    }, { chunks, agentMs, virtualize, header: HEADER });
  } finally {
    await chat.close();
  }
}

/** min / median / max of a list of numbers, formatted. */
export function spread(values, unit = ' ms') {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n) => `${Math.round(n)}`;
  return `${f(sorted[0])}/${f(sorted[Math.floor(sorted.length / 2)])}/${f(sorted[sorted.length - 1])}${unit}`;
}

/** Runs both sizes (and, when the page supports it, virtualisation off beside on) and prints a table. */
export async function streamBench(host, { sizes, modes = [true, false], runs = RUNS, offRuns = runs, log = console.log }) {
  log(`stream (page only, host-style batching, ${runs} fresh pages each; min/median/max)   [targets: visible ≤ 250 ms after the last chunk, no task > 50 ms streaming, none > 100 ms at completion, ≤ 5,000 elements]`);
  for (const { label, bytes, count, agentMs } of sizes) {
    const chunks = chunked(markdownText(bytes), count);
    const rows = [];
    for (const virtualize of modes) {
      const results = [];
      for (let i = 0; i < (virtualize ? runs : offRuns); i++) results.push(await streamOnce(host, { chunks, agentMs, virtualize }));
      rows.push({ virtualize, results });
      const pick = (k) => results.map((r) => r[k]);
      log(`  ${label.padEnd(22)} ${virtualize ? 'virtualised' : 'all in DOM '}  visible after last chunk ${spread(pick('visibleMs'))}, longest task streaming ${spread(pick('longestStreaming'))}, at completion ${spread(pick('longestCompleting'))}, idle work done ${spread(pick('idleDoneMs'))} after (its longest callback ${spread(pick('longestIdleMs'))}), tasks > 50 ms ${spread(pick('over50'), '')}, elements ${spread(pick('elements'), '')}${results.length < runs ? ` (${results.length} run${results.length === 1 ? '' : 's'})` : ''}`);
    }
    if (rows.length === 2) {
      const median = (row, k) => [...row.results.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(row.results.length / 2)];
      const ratio = (k) => (median(rows[1], k) / Math.max(1, median(rows[0], k))).toFixed(1);
      log(`  ${label.padEnd(22)} off/on (medians): visible ${ratio('visibleMs')}×, longest streaming task ${ratio('longestStreaming')}×, at completion ${ratio('longestCompleting')}×, elements ${ratio('elements')}×`);
    }
  }
}
