// Soak benchmark (issue 8, "Long sessions"): one session streaming an 8-hour working day, end to end.
//
// The fake agent (fixtures/fake-agent, real stdio) plays TURNS prompts from a generated scenario; each turn has 50
// groups of: a thought, an agent message, a tool call (pending → in_progress → completed, with a diff, terminal or text
// content), three more agent messages — every message streamed in ~100-character chunks with its own messageId.
// In all: 50,000 agent/thought messages (plus one user message per turn), 10,000 tool calls of which 2,000 edits
// with diffs and 4,000 commands with terminal output. They go through our acp layer (AgentConnection) into a
// Session's reducer, the panel's SessionProjector turns the changes into patches (≤ 1 per 16 ms), and each patch is
// delivered to the built webview in headless Chromium (the fake host of test/browser/support), as webview.mjs does.
//
// Every 10,000 messages (at the end of a turn) everything is flushed and rendered, both sides are garbage-collected,
// and the extension-host heap (process.memoryUsage().heapUsed; this process also runs Playwright's client, a roughly
// constant share), the webview's JS heap (CDP Performance.getMetrics JSHeapUsedSize) and its DOM nodes are printed,
// next to the size of the history itself. At the end, a fresh page opens the finished session: the host's snapshot
// (built and JSON-serialised, as VS Code's postMessage does), then in the page JSON.parse + the snapshot message to a
// laid-out page. Targets are printed beside the figures, not asserted. Takes ~40 s on an idle 2-core machine and a few
// minutes on a busy one, so run.mjs runs it only when named: `npm run bench -- soak` (SOAK_TURNS=n for a shorter day).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatHost, closeChatHost, esmRequire, REPO } from '../browser/support/chatPage.mjs';

const TURNS = Number(process.env.SOAK_TURNS ?? 200);
const GROUPS = 50; // per turn: 5 messages and 1 tool call each → 250 messages, 50 tool calls, 10 edits per turn
const CHECK_EVERY = 10_000;
const header = { status: 'ready', sessionKey: 's1', agentName: 'Soak', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };

// ─── The scenario: one prompt script, templated per turn with the prompt's text (the turn number) ───────────────

const words = 'agent session tool call patch render stream block markdown parser token frame layout buffer editor review diff terminal output plan'.split(' ');
let seed = 11;
const rand = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
const sentence = () => Array.from({ length: 6 + rand(8) }, () => words[rand(words.length)]).join(' ') + '.';
function markdown(target) {
  let text = '';
  while (text.length < target) {
    const r = rand(6);
    if (r === 0) text += `- ${sentence()}\n- **${words[rand(20)]}** ${sentence()}\n\n`;
    else if (r === 1) text += '```ts\nconst ' + words[rand(20)] + ' = ' + rand(1000) + ';\n```\n\n';
    else text += `${sentence()} See \`${words[rand(20)]}()\` and [docs](https://example.com/${words[rand(20)]}). ${sentence()}\n\n`;
  }
  return text;
}
const fileLines = Array.from({ length: 60 }, (_, i) => `export const value${i} = compute(${i}, '${words[i % 20]}');`);
const oldText = fileLines.join('\n') + '\n';
const newText = fileLines.map((l, i) => (i % 20 === 7 ? l.replace('compute', 'recompute') : l)).join('\n') + '\n';

function scenario() {
  const steps = [];
  const stream = (kind, id, text) => steps.push({ stream: { sessionUpdate: kind, messageId: `m-\${prompt.text}-${id}`, text, chunkSize: 100, delayMs: 0 } });
  for (let g = 0; g < GROUPS; g++) {
    const toolCallId = `t-\${prompt.text}-${g}`;
    const type = g % 5 === 0 ? 'edit' : g % 5 <= 2 ? 'execute' : 'read';
    const path = `/w/src/module${g}.ts`;
    stream('agent_thought_chunk', `${g}-0`, `Turn \${prompt.text}: ${markdown(180)}`);
    stream('agent_message_chunk', `${g}-1`, markdown(400));
    const input = type === 'execute' ? { command: `npm test -- module${g}` } : { path };
    steps.push({ update: { sessionUpdate: 'tool_call', toolCallId, title: type === 'execute' ? `Run npm test -- module${g}` : `${type === 'edit' ? 'Edit' : 'Read'} src/module${g}.ts`, kind: type, status: 'pending', locations: [{ path, line: 1 }], rawInput: input } });
    steps.push({ update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress', ...(type === 'execute' ? { content: [{ type: 'terminal', terminalId: `term-\${prompt.text}-${g}` }] } : {}) } });
    const content =
      type === 'edit' ? [{ type: 'diff', path, oldText, newText }]
      : type === 'execute' ? [{ type: 'terminal', terminalId: `term-\${prompt.text}-${g}` }]
      : [{ type: 'content', content: { type: 'text', text: oldText } }];
    steps.push({ update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content, ...(type === 'execute' ? { rawOutput: { exitCode: 0 } } : {}) } });
    for (let k = 2; k < 5; k++) stream('agent_message_chunk', `${g}-${k}`, markdown(400));
  }
  return { description: 'soak: one working day', prompts: [{ steps }] };
}

/** Command output as the terminal model would hold it: a bounded tail, the same for every command here. */
const TAIL = { output: Array.from({ length: 30 }, (_, i) => `\x1b[32m✓\x1b[0m module test ${i} passes (${i + 3} ms)`).join('\n') + '\n', truncated: false, exit: { code: 0, signal: null }, running: false };
const terminals = { get: (id) => (id.startsWith('term-') ? TAIL : undefined), canOpen: false };

async function hostCode() {
  const out = await build({
    stdin: {
      contents: `export { SessionProjector } from './src/panel/sessionProjector';
        export { AgentConnection } from './src/acp/agentConnection';
        export { buildClientCapabilities } from './src/acp/capabilities';
        export { Session } from './src/session/session';
        export { sessionToJson, parsePersistedSession } from './src/session/persistence';`,
      resolveDir: REPO, loader: 'ts',
    },
    bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning', banner: { js: esmRequire },
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

// ─── Measuring ──────────────────────────────────────────────────────────────────────────────────────────────────

const MB = (n) => `${(n / 1048576).toFixed(1)} MB`;
const hostHeap = () => {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
async function pageMemory(page, cdp) {
  await page.evaluate(() => window.__howdah.render());
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const m = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { jsHeap: m.JSHeapUsedSize, nodes: m.Nodes, dom, pageTaskMs: m.TaskDuration * 1000 };
}
/** What the history itself weighs: the characters of every message and tool payload (ASCII here: 1 byte each in V8). */
function historyBytes(state) {
  let chars = 0;
  for (const e of state.entries) if (e.kind === 'message') chars += e.text.length;
  for (const c of state.toolCalls.values()) {
    for (const x of c.content) chars += x.type === 'diff' ? (x.oldText?.length ?? 0) + x.newText.length : x.type === 'content' && x.content.type === 'text' ? x.content.text.length : 0;
  }
  return chars;
}

// ─── Run ────────────────────────────────────────────────────────────────────────────────────────────────────────

const code = await hostCode();
const dir = mkdtempSync(join(tmpdir(), 'howdah-soak-'));
const scenarioFile = join(dir, 'soak.json');
writeFileSync(scenarioFile, JSON.stringify(scenario()));
const host = await chatHost();
const rows = [];
try {
  const { AgentConnection, buildClientCapabilities, Session, SessionProjector, sessionToJson, parsePersistedSession } = code;
  const chat = await host.open({ width: 500, height: 900 });
  const cdp = await chat.page.context().newCDPSession(chat.page);
  await cdp.send('Performance.enable');

  let notifications = 0;
  let session;
  const connection = new AgentConnection(
    { command: process.execPath, args: [join(REPO, 'fixtures/fake-agent/agent.js'), scenarioFile], cwd: dir, env: {} },
    {
      name: 'soak',
      clientInfo: { name: 'howdah-soak', version: '0' },
      capabilities: buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'off', terminalAuth: false }),
      handlers: { sessionUpdate: (n) => { notifications++; session?.apply(n.update); }, requestPermission: async () => ({ outcome: 'cancelled' }) },
    },
  );
  await connection.start();
  const created = await connection.acp.call('newSession', { cwd: dir, mcpServers: [] });
  session = new Session(connection.acp, created.sessionId, created);
  const state = session.state;

  let delivery = Promise.resolve();
  let patches = 0;
  let patchBytes = 0;
  const post = (message) => {
    patches++;
    patchBytes += JSON.stringify(message).length;
    delivery = delivery.then(() => chat.page.evaluate((m) => window.postMessage(m, '*'), message));
  };
  const projector = new SessionProjector(1, state, terminals, () => header, post);
  post(projector.snapshot());
  await delivery;

  const counts = () => {
    let messages = 0, tools = 0, edits = 0;
    for (const e of state.entries) if (e.kind === 'message' && e.role !== 'user') messages++;
    for (const c of state.toolCalls.values()) { tools++; if (c.kind === 'edit') edits++; }
    return { messages, tools, edits, entries: state.entries.length };
  };
  const t0 = performance.now();
  let streamMs = 0;
  // Host CPU between checkpoints only (not their gc, page reads and save/load timing).
  const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
  let hostCpuMs = 0;
  let cpuAtLastCheckpoint = cpuMs();
  const checkpoint = async (label) => {
    projector.flush();
    await delivery;
    const wall = performance.now() - t0;
    const cpu = cpuMs();
    hostCpuMs += cpu - cpuAtLastCheckpoint;
    rows.push({ label, ...counts(), wall, streamMs, hostCpuMs, history: historyBytes(state), host: hostHeap(), ...(await pageMemory(chat.page, cdp)), patches, patchBytes });
    const r = rows.at(-1);
    // What src/agents/sessionStore.ts does for a changing session (every 1.5 s, or 20× the last save's time when that
    // is longer): one JSON.stringify of the whole transcript; load = what a window reload reads back.
    const s0 = performance.now();
    const saved = sessionToJson(state, { key: 'k', agentId: 'a', agentName: 'Soak', sessionId: 's', cwd: dir });
    const s1 = performance.now();
    parsePersistedSession(JSON.parse(saved));
    Object.assign(r, { saveMs: s1 - s0, loadMs: performance.now() - s1, savedBytes: saved.length });
    cpuAtLastCheckpoint = cpuMs();
    console.log(`  … ${label}: ${r.messages} messages, host ${MB(r.host)}, webview ${MB(r.jsHeap)}, ${r.dom} elements (${(wall / 1000).toFixed(0)} s)`);
  };
  await checkpoint('start');
  let next = CHECK_EVERY;
  for (let turn = 1; turn <= TURNS; turn++) {
    const t = performance.now();
    await session.prompt([{ type: 'text', text: String(turn) }]);
    streamMs += performance.now() - t;
    const { messages } = counts();
    if (messages >= next || turn === TURNS) {
      await checkpoint(turn === TURNS ? 'end' : `${next / 1000}k msgs`);
      next += CHECK_EVERY;
    }
  }
  await connection.stop();
  projector.dispose();
  await chat.close();

  // Opening the panel on the finished session: a fresh page, the full snapshot.
  const fresh = await host.open({ width: 500, height: 900 });
  const freshCdp = await fresh.page.context().newCDPSession(fresh.page);
  await freshCdp.send('Performance.enable');
  const opener = new SessionProjector(2, state, terminals, () => header, () => undefined);
  const h0 = performance.now();
  const snapshot = opener.snapshot();
  const h1 = performance.now();
  const json = JSON.stringify(snapshot);
  const h2 = performance.now();
  opener.dispose();
  await fresh.page.evaluate((s) => { window.__snapshotJson = s; }, json);
  const open = await fresh.page.evaluate(async () => {
    const t0 = performance.now();
    const message = JSON.parse(window.__snapshotJson);
    const parsed = performance.now() - t0;
    const rendered = window.__howdah.renderStats().totalMs;
    window.postMessage(message, '*');
    await new Promise((resolve) => window.addEventListener('message', resolve, { once: true }));
    window.__howdah.render();
    document.body.getBoundingClientRect();
    const laidOut = performance.now() - t0;
    const renderMs = window.__howdah.renderStats().totalMs - rendered;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    delete window.__snapshotJson;
    return { parsed, laidOut, renderMs, painted: performance.now() - t0 };
  });
  const openMem = await pageMemory(fresh.page, freshCdp);
  await fresh.close();

  // ─── Report ─────────────────────────────────────────────────────────────────────────────────────────────────────
  const end = rows.at(-1);
  console.log(`\nsoak: ${TURNS} turns over real stdio, ${notifications} session/update notifications in ${(end.streamMs / 1000).toFixed(1)} s of turns (${(end.wall / 1000).toFixed(0)} s wall with checkpoints); ${end.patches} patches, ${MB(end.patchBytes)} of patch JSON`);
  console.log(`  ${end.messages} messages (+ ${TURNS} user), ${end.tools} tool calls, ${end.edits} edits, ${end.entries} entries\n`);
  const cols = ['point', 'messages', 'entries', 'history', 'host heap', 'host − history', 'webview heap', 'DOM elements', 'DOM nodes (CDP)', 'turns', 'host CPU', 'page CPU', 'save', 'load'];
  const since = (r, i, key) => (i === 0 ? '' : `${((r[key] - rows[i - 1][key]) / 1000).toFixed(1)} s`);
  const table = rows.map((r, i) => [r.label, r.messages, r.entries, MB(r.history), MB(r.host), MB(r.host - r.history), MB(r.jsHeap), r.dom, r.nodes, since(r, i, 'streamMs'), since(r, i, 'hostCpuMs'), since(r, i, 'pageTaskMs'), `${MB(r.savedBytes)} ${r.saveMs.toFixed(0)} ms`, `${r.loadMs.toFixed(0)} ms`].map(String));
  const widths = cols.map((c, i) => Math.max(c.length, ...table.map((r) => r[i].length)));
  const fmt = (r) => '  ' + r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(fmt(cols));
  for (const r of table) console.log(fmt(r));
  const warm = rows.find((r) => r.messages >= CHECK_EVERY) ?? rows[0];
  const perMsg = (a, b, key) => (b.messages > a.messages ? (b[key] - a[key]) / (b.messages - a.messages) : 0);
  console.log(`\n  growth after warm-up (${warm.label} → end), per message: host ${perMsg(warm, end, 'host').toFixed(0)} B (history itself ${perMsg(warm, end, 'history').toFixed(0)} B), webview heap ${perMsg(warm, end, 'jsHeap').toFixed(0)} B, DOM elements ${(end.dom - warm.dom)} in all`);
  console.log('  [target: flat after warm-up — growth no more than the history itself, which the webview keeps out of the DOM]');
  console.log('  turns / host CPU / page CPU: since the previous point — wall time in session.prompt, this process\'s CPU (host code and');
  console.log('  Playwright\'s client, checkpoints excluded), the page\'s main-thread time (CDP TaskDuration) [target: flat per 10,000 messages]');
  console.log('  save / load: sessionToJson (one JSON.stringify of the whole session), and JSON.parse + parsePersistedSession of it — what');
  console.log('  src/agents/sessionStore.ts does while a session changes (every 1.5 s, or 20× the last save time when longer)');
  console.log(`\n  open the panel on the finished session: snapshot ${MB(json.length)} of JSON (${snapshot.entries.length} entries)`);
  console.log(`    host: snapshot() ${(h1 - h0).toFixed(0)} ms + JSON.stringify ${(h2 - h1).toFixed(0)} ms`);
  console.log(`    page: JSON.parse ${open.parsed.toFixed(0)} ms, render ${open.renderMs.toFixed(0)} ms, to laid-out page ${open.laidOut.toFixed(0)} ms, to first paint ${open.painted.toFixed(0)} ms; then webview heap ${MB(openMem.jsHeap)}, ${openMem.dom} elements`);
  console.log(`    total ≈ ${(h2 - h0 + open.painted).toFixed(0)} ms   [target: < 500 ms]`);
} finally {
  await closeChatHost();
  rmSync(dir, { recursive: true, force: true });
}
