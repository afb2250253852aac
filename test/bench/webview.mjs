// Webview rendering benchmark, in headless Chromium with the fake host of the browser tests (test/browser/support).
//
// Streaming: 20,000 agent_message_chunk updates totalling 1 MB of Markdown, two ways:
//  A. through the host, as in VS Code: the real SessionState + SessionProjector run here in Node (an agent flooding
//     the chunks over ~2 s), and each patch they post (≤ 1 per 16 ms, text as offset + delta) goes to the page;
//  B. one message per chunk (20,000 patches, no host coalescing): a stress case for the page alone. The cost of
//     delivering 20,000 messages to a page that ignores them is measured too, and shown.
// Each is compared, in the same run, with a naive page that re-renders the whole message's Markdown (same
// markdown-it configuration) for every patch. Naive per-chunk rendering is quadratic: it runs for a time box and
// its total is extrapolated from the prefix it finished; both are also compared on that same prefix.
//
// Long transcript: DOM nodes and time from the snapshot message of a 2,000-entry transcript to a laid-out page.
// Figures are printed with the targets beside them, not asserted (these machines are noisy).
import { build } from 'esbuild';
import { chatHost, closeChatHost, esmRequire, REPO } from '../browser/support/chatPage.mjs';
import { markdownText, streamBench } from './webviewStream.mjs';

const CHUNKS = 20_000;
const BYTES = 1_000_000;
const AGENT_MS = 2_000;
const NAIVE_BUDGET_MS = 15_000;
/** `--quick`: skip the naive baselines (they take ~2 minutes). */
const QUICK = process.argv.includes('--quick');
/**
 * `--stream` (or HOWDAH_WEBVIEW_BENCH=stream): only the stream runs at the sizes of issue 17 (webviewStream.mjs);
 * `--no-stream` (or =classic): only the sections below. `npm run bench -- webview` runs both.
 */
const ONLY = process.argv.includes('--stream') ? 'stream' : process.argv.includes('--no-stream') ? 'classic' : process.env.HOWDAH_WEBVIEW_BENCH;
/** Sizes of the stream runs: 1 MiB in 20,000 chunks, 10 MiB in 200,000 (an agent writing ~2 MiB/s, as in the issue). */
const STREAM_SIZES = [
  { label: '1 MiB / 20,000 chunks', bytes: 1 << 20, count: 20_000, agentMs: 500 },
  { label: '10 MiB / 200,000 chunks', bytes: 10 << 20, count: 200_000, agentMs: 5_000 },
];
/** `--trace`: also record a Chrome trace of Howdah's runs and print where the main thread's time went. */
const TRACE = process.argv.includes('--trace');
/** Trace events worth a line: the renderer's main-thread phases. */
const TRACED = ['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'Commit', 'MinorGC', 'MajorGC', 'V8.GC_MC_BACKGROUND_MARKING', 'ResizeObserverController::DeliverObservations', 'IntersectionObserverController::computeIntersections', 'HitTest', 'ScheduleStyleRecalculation'];
const header = { status: 'ready', sessionKey: 's1', agentName: 'Bench', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };

function markdownCorpus() {
  const text = markdownText(BYTES);
  const size = Math.ceil(BYTES / CHUNKS);
  const chunks = [];
  for (let i = 0; i < BYTES; i += size) chunks.push(text.slice(i, Math.min(i + size, BYTES)));
  return chunks;
}

/** Bundles what a test needs from the sources: the host side for Node, the naive renderer for the page. */
async function bundles() {
  const host = await build({
    stdin: { contents: "export { SessionProjector } from './src/panel/sessionProjector'; export { SessionState } from './src/session/sessionState'; export { SessionUpdate } from './src/acp/schema/sessionUpdate';", resolveDir: REPO, loader: 'ts' },
    bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning', banner: { js: esmRequire },
  });
  const naive = await build({
    stdin: {
      contents: `import { createMarkdown } from './webview/markdown/markdownIt';
        const md = createMarkdown(); let text = ''; const el = document.createElement('div'); el.className = 'md';
        document.querySelector('.transcript').replaceChildren(el);
        // Every patch re-renders the whole message. (The page's own store, which got no snapshot, ignores them.)
        window.addEventListener('message', (event) => {
          const m = event.data;
          if (m.type !== 'patch') return;
          for (const op of m.ops) if (op.op === 'append') text += op.delta; else if (op.op === 'entry' && op.entry.text !== undefined) text = op.entry.text;
          el.innerHTML = md.render(text);
        });`,
      resolveDir: REPO, loader: 'ts',
    },
    bundle: true, platform: 'browser', format: 'iife', write: false, logLevel: 'warning',
  });
  return { host: await import(`data:text/javascript;base64,${Buffer.from(host.outputFiles[0].text).toString('base64')}`), naive: naive.outputFiles[0].text };
}

// ─── In-page recording: frames, long tasks, main-thread time (CDP) ───────────────────────────────────────────────

async function startRecording(page, trace = false) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const traceEvents = [];
  if (trace) {
    cdp.on('Tracing.dataCollected', (e) => traceEvents.push(...e.value));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  }
  const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await read();
  await page.evaluate(() => {
    const rec = (window.__rec = { frames: [], longTasks: [], running: true });
    const tick = (t) => { rec.frames.push(t); if (rec.running) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    rec.observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) rec.longTasks.push(e.duration); });
    rec.observer.observe({ type: 'longtask' });
  });
  return async () => {
    const page_ = await page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const rec = window.__rec;
      rec.running = false;
      rec.observer.disconnect();
      let longestFrame = 0;
      for (let k = 1; k < rec.frames.length; k++) longestFrame = Math.max(longestFrame, rec.frames[k] - rec.frames[k - 1]);
      return { longestFrame, longestTask: Math.max(0, ...rec.longTasks), longTasks: rec.longTasks.length, render: window.__howdah.renderStats() };
    });
    const after = await read();
    const ms = (name) => (after[name] - before[name]) * 1000;
    let traced;
    if (trace) {
      const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await done;
      traced = summarizeTrace(traceEvents);
    }
    return { ...page_, taskMs: ms('TaskDuration'), scriptMs: ms('ScriptDuration'), layoutMs: ms('LayoutDuration'), styleMs: ms('RecalcStyleDuration'), traced };
  };
}

/** Total duration per event name on the renderer's main thread (nested events are counted in their parents too). */
function summarizeTrace(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const totals = new Map();
  for (const e of events) {
    if (!main || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !TRACED.includes(e.name)) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
  }
  // Per quarter of the run: a phase whose cost grows with the message's length shows it here.
  const mainEvents = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
  const t0 = mainEvents.reduce((m, e) => Math.min(m, e.ts), Infinity);
  const span = mainEvents.reduce((m, e) => Math.max(m, e.ts), -Infinity) - t0 || 1;
  const quarters = (name) => {
    const q = [0, 0, 0, 0];
    for (const e of mainEvents) if (e.name === name) q[Math.min(3, Math.floor(((e.ts - t0) / span) * 4))] += e.dur / 1000;
    return `${name} by quarter ${q.map((v) => v.toFixed(0)).join('/')} ms`;
  };
  // What the longest task was made of: the events inside it, by name.
  const tasks = mainEvents.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const longest = tasks.reduce((a, b) => (b.dur > (a?.dur ?? 0) ? b : a), undefined);
  let inside = '';
  if (longest) {
    const parts = new Map();
    for (const e of mainEvents) if (e !== longest && e.ts >= longest.ts && e.ts + e.dur <= longest.ts + longest.dur && TRACED.includes(e.name)) parts.set(e.name, (parts.get(e.name) ?? 0) + e.dur / 1000);
    inside = `\n  longest task ${(longest.dur / 1000).toFixed(0)} ms at ${((longest.ts - t0) / 1000).toFixed(0)} ms: ${[...parts].sort((a, b) => b[1] - a[1]).map(([n, d]) => `${n} ${d.toFixed(0)}`).join(', ')}`;
  }
  return `${[...totals].sort((a, b) => b[1] - a[1]).map(([name, total]) => `${name} ${total.toFixed(0)} ms`).join(', ')}\n  ${['Layout', 'Paint', 'PrePaint', 'UpdateLayoutTree'].map(quarters).join('; ')}${inside}`;
}

async function openPage(host, naiveCode) {
  const chat = await host.open({ width: 500, height: 900 });
  if (naiveCode) await chat.page.evaluate(naiveCode);
  return chat;
}

// ─── A: through the host's projector ─────────────────────────────────────────────────────────────────────────────

async function throughHost(host, code, chunks, naiveCode) {
  const { SessionProjector, SessionState, SessionUpdate } = code.host;
  const chat = await openPage(host, naiveCode);
  const state = new SessionState();
  state.beginTurn();
  let delivery = Promise.resolve();
  let patches = 0;
  const post = (message) => {
    patches++;
    delivery = delivery.then(() => chat.page.evaluate((m) => window.postMessage(m, '*'), message));
  };
  const projector = new SessionProjector(1, state, { get: () => undefined }, () => header, post);
  const snapshot = projector.snapshot();
  // Without the snapshot the page's own store ignores every patch (wrong epoch): only the naive renderer works.
  if (!naiveCode) post(snapshot);
  await delivery;
  patches = 0;
  // Parsed before the clock starts: this machine's cores are shared with the browser being measured.
  const updates = chunks.map((text) => SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
  const stop = await startRecording(chat.page, TRACE && !naiveCode);
  const perMs = Math.ceil(chunks.length / AGENT_MS);
  const streamStart = performance.now();
  for (let i = 0; i < updates.length; i++) {
    state.apply(updates[i]);
    if (i % perMs === perMs - 1) await new Promise((r) => setTimeout(r, 1));
  }
  const streamMs = performance.now() - streamStart;
  const streamedPatches = patches;
  await new Promise((r) => setTimeout(r, 50));
  projector.flush();
  await delivery;
  const result = await stop();
  projector.dispose();
  await chat.close();
  return { ...result, patches, postsPerSecond: (streamedPatches / streamMs) * 1000 };
}

/**
 * The host alone: how many patches the projector can produce from the session — every chunk applied and flushed at
 * once, as if each were the last of a frame (its capacity; the real timer asks for ≤ 60 a second).
 */
function hostCapacity(code, chunks) {
  const { SessionProjector, SessionState, SessionUpdate } = code.host;
  const state = new SessionState();
  state.beginTurn();
  let bytes = 0;
  const projector = new SessionProjector(1, state, { get: () => undefined }, () => header, (m) => { bytes += JSON.stringify(m).length; }, { set: () => 1, clear: () => undefined });
  projector.snapshot();
  const updates = chunks.map((text) => SessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
  const t0 = performance.now();
  for (const update of updates) {
    state.apply(update);
    projector.flush();
  }
  const ms = performance.now() - t0;
  projector.dispose();
  return { ms, perSecond: (updates.length / ms) * 1000, bytes };
}

// ─── B: one message per chunk, posted inside the page ───────────────────────────────────────────────────────────

async function perChunk(host, chunks, { naiveCode, ignore = false, budgetMs = Infinity } = {}) {
  const chat = await openPage(host, naiveCode);
  if (!naiveCode) {
    await chat.page.evaluate((h) => window.postMessage({ type: 'snapshot', epoch: 1, header: h, entries: [{ kind: 'agent', id: 1, text: '', blocks: [] }], plan: [], commands: [], turn: 'running', queue: [] }, '*'), header);
    await chat.page.waitForFunction(() => window.__howdah.renders() > 0);
  }
  const stop = await startRecording(chat.page, TRACE && !naiveCode && !ignore);
  const driven = await chat.page.evaluate(async ({ chunks, epoch, budgetMs }) => {
    const channel = new MessageChannel();
    const marks = [];
    const start = performance.now();
    let offset = 0;
    let i = 0;
    await new Promise((resolve) => {
      channel.port1.onmessage = () => {
        if (i >= chunks.length || performance.now() - start > budgetMs) return resolve();
        window.postMessage({ type: 'patch', epoch, ops: [{ op: 'append', index: 0, offset, delta: chunks[i] }] }, '*');
        offset += chunks[i].length;
        if (++i % 100 === 0) marks.push([i, performance.now() - start]);
        channel.port2.postMessage(0);
      };
      channel.port2.postMessage(0);
    });
    return { done: i, wall: performance.now() - start, marks };
  }, { chunks, epoch: ignore ? 999 : 1, budgetMs: budgetMs === Infinity ? 1e12 : budgetMs });
  const result = await stop();
  await chat.close();
  return { ...result, ...driven };
}

// ─── Long transcript ─────────────────────────────────────────────────────────────────────────────────────────────

function entries2000() {
  return Array.from({ length: 2_000 }, (_, i) => {
    const id = i + 1;
    switch (i % 5) {
      case 0: return { kind: 'user', id, text: `Question ${i}: what does this do?`, attachments: [] };
      case 1: return { kind: 'thought', id, text: `Thinking about ${i}…` };
      case 3: return { kind: 'tool', id, tool: { toolCallId: `tc${i}`, title: `Edit src/file${i}.ts`, kind: 'edit', status: 'completed', locations: [{ path: `/w/src/file${i}.ts`, line: 1 }], content: [{ type: 'diff', path: `/w/src/file${i}.ts`, added: 3, removed: 1, newFile: false }], rawInput: `{"path":"/w/src/file${i}.ts"}` } };
      default: return { kind: 'agent', id, text: `Answer ${i} with **bold**, \`code\` and a [link](https://example.com).\n\n- one\n- two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`\n`, blocks: [] };
    }
  });
}

async function openTranscript(host) {
  const chat = await host.open({ width: 500, height: 900 });
  const result = await chat.page.evaluate(async ({ h, entries }) => {
    const t0 = performance.now();
    window.postMessage({ type: 'snapshot', epoch: 5, header: h, entries, plan: [], commands: [], turn: 'idle', queue: [] }, '*');
    await new Promise((resolve) => window.addEventListener('message', resolve, { once: true }));
    window.__howdah.render();
    document.body.getBoundingClientRect();
    const laidOut = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { laidOut, painted: performance.now() - t0, nodes: document.querySelectorAll('*').length, transcriptNodes: window.__howdah.nodeCount() };
  }, { h: header, entries: entries2000() });
  await chat.close();
  return result;
}

// ─── Report ──────────────────────────────────────────────────────────────────────────────────────────────────────

const ms = (n) => `${n.toFixed(0)} ms`;
const line = (label, r) => `  ${label.padEnd(26)} main-thread ${ms(r.taskMs).padStart(8)} (script ${ms(r.scriptMs)}, style ${ms(r.styleMs)}, layout ${ms(r.layoutMs)}), longest frame ${ms(r.longestFrame)}, longest task ${ms(r.longestTask)}${r.render?.renders ? `, ${r.render.renders} renders taking ${ms(r.render.totalMs)} (longest ${ms(r.render.longestMs)})` : ''}`;

const chunks = markdownCorpus();
const code = await bundles();
const host = await chatHost();
try {
  if (ONLY !== 'classic') await streamBench(host, { sizes: STREAM_SIZES, modes: process.argv.includes('--virtualized-only') ? [true] : [true, false], offRuns: process.argv.includes('--off-runs-1') ? 1 : undefined });
  if (ONLY !== 'stream') await classic();
} finally {
  await closeChatHost();
}

async function classic() {
  console.log(`streaming ${chunks.length} chunks, ${(chunks.join('').length / 1e6).toFixed(2)} MB of Markdown   [targets: < 2000 ms main-thread, no frame > 50 ms, ≥ 10× better than naive]`);

  console.log(`A. through the host projector (agent floods the chunks over ~${AGENT_MS / 1000} s):`);
  const a = await throughHost(host, code, chunks);
  console.log(`${line('howdah', a)}, ${a.patches} patches`);
  const capacity = hostCapacity(code, chunks);
  console.log(`  host: posts while streaming ${a.postsPerSecond.toFixed(0)}/s [target ≤ 60]; capacity ${(capacity.perSecond / 1000).toFixed(0)}k patches/s (${chunks.length} chunks applied and each flushed as its own patch in ${ms(capacity.ms)}, JSON-serialised ${(capacity.bytes / 1e6).toFixed(1)} MB)`);
  if (a.traced) console.log(`  trace (main thread): ${a.traced}`);
  if (!QUICK) {
    const aNaive = await throughHost(host, code, chunks, code.naive);
    console.log(`${line('naive (whole message)', aNaive)}, ${aNaive.patches} patches`);
    console.log(`  → ${(aNaive.taskMs / a.taskMs).toFixed(1)}× less main-thread time than naive`);
  }

  console.log('B. one message per chunk (20,000 patches straight to the page):');
  const b = await perChunk(host, chunks);
  const delivery = await perChunk(host, chunks, { ignore: true });
  console.log(`${line('howdah', b)}, wall ${ms(b.wall)}`);
  if (b.traced) console.log(`  trace (main thread): ${b.traced}`);
  console.log(`${line('  of which delivery alone', delivery)}  (the same messages, ignored by the page)`);
  if (!QUICK) {
    const bNaive = await perChunk(host, chunks, { naiveCode: code.naive, budgetMs: NAIVE_BUDGET_MS });
    const k = bNaive.done;
    const oursAtK = b.marks.find(([n]) => n >= k)?.[1] ?? b.wall;
    const extrapolated = k >= chunks.length ? bNaive.taskMs : bNaive.taskMs * (chunks.length / k) ** 2;
    console.log(`${line('naive (whole message)', bNaive)}: ${k} of ${chunks.length} chunks in the ${NAIVE_BUDGET_MS / 1000} s box`);
    console.log(`  → naive total extrapolated ≈ ${(extrapolated / 1000).toFixed(0)} s: ${(extrapolated / b.taskMs).toFixed(0)}× more than howdah; on the same first ${k} chunks howdah took ${ms(oursAtK)} wall vs ${ms(bNaive.wall)} (${(bNaive.wall / oursAtK).toFixed(0)}×)`);
  }

  const open = await openTranscript(host);
  console.log(`2,000-entry transcript: ${open.nodes} DOM nodes in the page (${open.transcriptNodes} in the transcript); snapshot to laid-out page ${ms(open.laidOut)}, to first paint ${ms(open.painted)}   [targets: < 5000 nodes, < 300 ms]`);
}
