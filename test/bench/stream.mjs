// Stream benchmark in the real VS Code (issue 17): the packaged .vsix in code-server, driven in headless Chromium,
// against the stress agent (fixtures/stress-agent: ACP over stdio, writing as fast as the pipe takes it).
//
// Each of RUNS fresh windows (a new code-server, a new browser): the Howdah view is opened (activation: VS Code's own
// activation time from Developer: Show Running Extensions, and what activate() logged: its time, the CPU spent
// meanwhile, the heap), a New Session (the agent's session/new answer → the panel ready to type, split where the new
// session's snapshot reaches the page: streamNewSession.mjs), then for each size a new session streaming
// one Markdown answer (1 MiB in 20,000 agent_message_chunk notifications, 10 MiB in 200,000), and last a session of
// 60,000 one-line messages whose view is closed and opened again (click → the last entry on screen). That session's
// New Session comes right after the last answer, while the page gives that answer's placeholders their rendered text
// in its idle time: it is reported, with the longest of those idle callbacks (the virtualiser's count).
// Per stream: the agent's last write (ms after Send), Send → final text visible, last write → final text visible,
// last write → the whole answer in the page (text that flooded in comes newest part first: src/panel/floodGaps.ts),
// the longest main-thread task in the workbench page and in the webview frame (PerformanceObserver `longtask`, in
// both), tasks > 50 ms, the longest animation frame and what it spent its time on (scripts, the layout they forced,
// its own style, layout and paint: Chromium's long-animation-frame timing), DOM elements in the webview at the end,
// extension-host CPU time and RSS (/proc), renderer RSS, and the CPU time every process spent from Send to visible,
// by role and, logged, by thread (streamProcs.mjs cpuSnapshot); how long the renderer's and the extension host's main
// threads ran and waited for a core from Send to visible, and in every task over 50 ms and long frame
// (streamSched.mjs: a task whose thread mostly waited is long because the machine is busy, not because of its work).
// Printed as min / median / max over the runs, then the page-only bench (webview.mjs --quick) from the same run.
// Figures and targets are printed, never asserted. Takes several minutes: `npm run bench -- stream`, under
// `flock /tmp/howdah-vscode.lock`. STREAM_RUNS=n, STREAM_SIZES=1 (1 MiB only), STREAM_PAGE_BENCH=0 (skip webview.mjs),
// STREAM_PROFILE=<folder> (a CPU profile of the renderer per stream; with STREAM_PROFILE_UNTIL=whole, on past the end
// shown), STREAM_HOST_PROFILE=<folder> (of the extension host), STREAM_FRAME_MS=<ms> (the page's stream pacing),
// STREAM_SCHED_MS=<ms> (how often the threads' scheduler statistics are sampled: default 8, 0 for a stream's start and
// end only, to see what the sampling itself costs), HOWDAH_VSIX=<file> (bench that .vsix instead of packaging this
// tree: an A/B of two builds), STRESS_AGENT_BATCH=<bytes> (the agent writes its answer that many bytes at a time: the
// same messages for about half its CPU, to see what a cheaper agent leaves the window on a machine it keeps busy).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, stressAgent } from '../harness/config.mjs';
import { launchBrowser } from '../harness/browser.mjs';
import { button, promptBox } from '../harness/panel.mjs';
import { stopEverything } from '../harness/processes.mjs';
import { provision } from '../harness/provision.mjs';
import { createRunDir, removeRunDir, startCodeServer } from '../harness/server.mjs';
import { log, phase } from '../harness/timing.mjs';
import { howdahActivityItem, openHowdahView, openWorkbench, runCommand, WEBVIEW_FRAME } from '../harness/workbench.mjs';
import { packageExtension } from '../tools/package.mjs';
import { startHostProfile } from './hostProfile.mjs';
import { cpuSnapshot, descendants, extensionHost, procStats, renderers } from './streamProcs.mjs';
import { FRAME_PROBE, watchText } from './streamProbes.mjs';
import { agentTimes, now, timeNewSession } from './streamNewSession.mjs';
import { logLongTasks, longestFrame, longFrames, longTasks, summarizeTasks } from './streamTasks.mjs';
import { traceTaskSummary } from './streamTrace.mjs';
import { printReport } from './streamReport.mjs';
import { sampleScheduler } from './streamSched.mjs';

const RUNS = Number(process.env.STREAM_RUNS ?? 3);
/** STRESS_AGENT_BATCH=<bytes>: the stress agent writes its answers that many bytes at a time (0: a message at a time). */
const AGENT_BATCH = Number(process.env.STRESS_AGENT_BATCH) || 0;
const MIB = 1024 * 1024;
const SIZES = [
  { label: '1 MiB / 20,000 chunks', chunks: 20_000, bytes: MIB },
  { label: '10 MiB / 200,000 chunks', chunks: 200_000, bytes: 10 * MIB },
].slice(0, Number(process.env.STREAM_SIZES ?? 2));
const ENTRIES = Number(process.env.STREAM_ENTRIES ?? 60_000);

/** The chat webview's content frame (the inner `#active-frame` of our view's iframe) as a playwright Frame. */
async function webviewFrame(page) {
  const outer = await page.locator(WEBVIEW_FRAME).first().elementHandle();
  const outerFrame = await outer.contentFrame();
  const inner = await outerFrame.locator('#active-frame').elementHandle();
  return inner.contentFrame();
}

/** Whether `frame` runs in the workbench's renderer process: CDP gives an out-of-process frame its own session only. */
async function inProcess(page, frame) {
  try {
    const cdp = await page.context().newCDPSession(frame);
    await cdp.detach();
    return false;
  } catch {
    return true;
  }
}

async function install(frame) {
  await frame.evaluate(FRAME_PROBE);
}

/** Activation as VS Code measured it (code loading + activate call), from Developer: Show Running Extensions. */
async function activationTime(page) {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'Howdah' }).first();
  await row.waitFor({ timeout: 20000 });
  const text = await row.locator('.activation-time').first().textContent({ timeout: 10000 });
  await page.keyboard.press('Control+W');
  const m = /([\d.]+)\s*ms/.exec(text ?? '');
  return m ? Number(m[1]) : NaN;
}

/** What activate() logged about itself in the Howdah Chat log: its own duration and the extension host's heap. */
function activationLog(dataDir) {
  const found = [];
  const walk = (dir) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('Howdah Chat.log')) found.push(p);
    }
  };
  walk(path.join(dataDir, 'logs'));
  for (const file of found) {
    // (a build from before stop 32 logs no CPU figure)
    const m = /activated in ([\d.]+) ms(?: \(([\d.]+) ms of CPU\))?; extension host heap ([\d.]+) MiB/.exec(fs.readFileSync(file, 'utf8'));
    if (m) return { activateMs: Number(m[1]), activateCpuMs: m[2] === undefined ? NaN : Number(m[2]), heapMiB: Number(m[3]) };
  }
  return { activateMs: NaN, activateCpuMs: NaN, heapMiB: NaN };
}

/**
 * STREAM_PROFILE=<folder>: a CPU profile of the workbench's renderer (the webview's frame runs in it too) from Send to
 * the answer shown, one .cpuprofile per stream, and a devtools.timeline trace beside it (.trace.json: layout, paint,
 * style per frame, which the CPU profile shows only as "(program)"); open either in Chromium's DevTools. The report
 * then adds the trace's long tasks with the time their thread really ran (streamTrace.mjs).
 */
const PROFILE_DIR = process.env.STREAM_PROFILE;
/**
 * STREAM_PROFILE_UNTIL=whole: the renderer's profile and trace run on until the whole answer is in the page and 1.5 s
 * after (a flood's fills, the last render, the virtualiser's idle work), instead of stopping when the end is shown.
 */
const PROFILE_UNTIL_WHOLE = process.env.STREAM_PROFILE_UNTIL === 'whole';
if (process.env.STREAM_PROFILE_UNTIL !== undefined && !PROFILE_UNTIL_WHOLE) throw new Error(`STREAM_PROFILE_UNTIL must be "whole" (got "${process.env.STREAM_PROFILE_UNTIL}")`);
/** STREAM_HOST_PROFILE=<folder>: the same for the extension host (hostProfile.mjs), its heaviest functions in the report. */
const HOST_PROFILE_DIR = process.env.STREAM_HOST_PROFILE;
/** STREAM_FRAME_MS=<ms>: the page renders a running answer at most once per this many ms (0: every frame; default 32, app.ts). */
const FRAME_MS = process.env.STREAM_FRAME_MS === undefined ? undefined : Number(process.env.STREAM_FRAME_MS);
if (FRAME_MS !== undefined && !(FRAME_MS >= 0)) throw new Error(`STREAM_FRAME_MS must be a number of milliseconds, 0 or more (got "${process.env.STREAM_FRAME_MS}")`);

async function startProfile(page) {
  fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,toplevel', transferMode: 'ReportEvents' });
  return {
    async stop(file) {
      const { profile } = await cdp.send('Profiler.stop');
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      fs.writeFileSync(file.replace(/\.cpuprofile$/, '.trace.json'), JSON.stringify(events));
      fs.writeFileSync(file, JSON.stringify(profile));
      await cdp.detach();
      console.log(`profile: ${file}`);
      return traceTaskSummary(events);
    },
  };
}

/** The main threads a New Session's timing watches (streamNewSession.mjs). */
const watched = (server) => ({ host: extensionHost(server.pid), renderers: renderers(descendants(process.pid)).map((r) => r.pid) });

async function stream(page, wv, frame, server, timesFile, size) {
  const newSessionBefore = await timeNewSession(page, wv, frame, timesFile, watched(server));
  await promptBox(wv).fill(`stream ${size.chunks} ${size.bytes}`);
  const marker = `STRESS-END ${size.chunks}`;
  const host = extensionHost(server.pid);
  // (before the probe below: a profiler that cannot start fails the run with its own error, not the probe's)
  const profiling = PROFILE_DIR ? await startProfile(page) : undefined;
  const hostProfiling = HOST_PROFILE_DIR ? await startHostProfile(host) : undefined;
  const visible = shown(frame, marker);
  const before = procStats(host);
  const cpuBefore = cpuSnapshot(process.pid, server.pid);
  const rendererPids = renderers(descendants(process.pid)).map((r) => r.pid);
  const scheduler = sampleScheduler([host, ...rendererPids], now);
  const sent = now();
  await frame.evaluate((m) => { window.__bench.marker = m; window.__bench.markerReceived = undefined; }, marker);
  if (FRAME_MS !== undefined) await frame.evaluate((ms) => window.__howdah.configure({ streamFrameMs: ms }), FRAME_MS);
  await button(wv, 'Send').click();
  const visibleAt = await visible;
  const cpuAfter = cpuSnapshot(process.pid, server.pid);
  const threads = [...cpuAfter.byThread].map(([k, v]) => [k, v - (cpuBefore.byThread.get(k) ?? 0)]).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  log(`  threads' CPU, Send → visible (ms): ${threads.slice(0, 14).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' · ')}`);
  const profileName = `${size.label.replace(/[^\w]+/g, '-')}-${Date.now()}.cpuprofile`;
  const hostProfile = await hostProfiling?.stop(path.join(HOST_PROFILE_DIR, `host-${profileName}`));
  let trace = PROFILE_UNTIL_WHOLE ? undefined : await profiling?.stop(path.join(PROFILE_DIR, profileName));
  const receivedAt = await frame.evaluate(() => window.__bench.markerReceived);
  const lastWrite = agentTimes(timesFile, sent)['last-write']?.t ?? NaN;
  const wholeAt = await frame.evaluate(() => window.__bench.whenWhole());
  await page.waitForTimeout(1500); // the tasks that finish the answer (last render, the fills of a flood) end too
  if (PROFILE_UNTIL_WHOLE) trace = await profiling?.stop(path.join(PROFILE_DIR, profileName));
  const after = procStats(host);
  const sched = scheduler.stop();
  const split = lastWrite;
  const renderer = sched.busiest(rendererPids, sent, visibleAt);
  // the renderer's main thread in a long task or frame, and the extension host's meanwhile (the core it may have held)
  const threadIn = (f) => ({ ...sched.between(renderer, f.start, f.start + f.duration), hostRan: sched.between(host, f.start, f.start + f.duration).ran });
  const workbenchTasks = await longTasks(page.mainFrame(), sent);
  logLongTasks(workbenchTasks, sent, split, threadIn);
  const pageTasks = summarizeTasks(workbenchTasks, split);
  const frameTasks = summarizeTasks(await longTasks(frame, sent), split);
  const loaf = longestFrame(await longFrames(page.mainFrame(), sent), sent, split, threadIn);
  const rendererSched = sched.between(renderer, sent, visibleAt);
  const hostSched = sched.between(host, sent, visibleAt);
  const dom = await frame.evaluate(() => {
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes++;
    return { elements: document.getElementsByTagName('*').length, nodes };
  });
  const rends = renderers(descendants(process.pid));
  return {
    newSession: newSessionBefore,
    agentLastWrite: lastWrite - sent,
    sendToVisible: visibleAt - sent,
    lastWriteToVisible: visibleAt - lastWrite,
    lastWriteToReceived: receivedAt ? receivedAt - lastWrite : NaN,
    lastWriteToWhole: wholeAt - lastWrite,
    pageLongestStreaming: pageTasks.longestStreaming,
    pageLongestCompletion: pageTasks.longestCompletion,
    pageOver50: pageTasks.over50,
    frameLongestStreaming: frameTasks.longestStreaming,
    frameLongestCompletion: frameTasks.longestCompletion,
    frameOver50: frameTasks.over50,
    loaf,
    elements: dom.elements,
    nodes: dom.nodes,
    rendererRan: rendererSched.ran,
    rendererWaited: rendererSched.waited,
    hostRan: hostSched.ran,
    hostWaited: hostSched.waited,
    hostCpu: after.cpuMs - before.cpuMs,
    hostRss: after.rssMiB,
    rendererRss: Math.max(0, ...rends.map((r) => r.rssMiB)),
    trace,
    hostProfile,
    cpu: Object.fromEntries(Object.keys(cpuAfter.byRole).map((k) => [k, cpuAfter.byRole[k] - cpuBefore.byRole[k]])),
  };
}

/** Seconds to wait for a stress answer's end marker: a stress agent that failed (its answer an error) never sends it. */
const MARKER_TIMEOUT_S = 180;

/** When the page first shows `marker`; fails (naming the marker) instead of waiting for ever. */
function shown(frame, marker) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`"${marker}" not shown within ${MARKER_TIMEOUT_S} s: see the stress agent's log and the panel`)), MARKER_TIMEOUT_S * 1000); });
  return Promise.race([frame.evaluate(watchText, marker), late]).finally(() => clearTimeout(timer));
}

/** A session of `ENTRIES` one-line messages; then its view is closed and opened again: click → last entry shown. */
async function reopenLongSession(page, wv, frame, server, timesFile) {
  // right after the last answer: the page is still giving its placeholders their rendered text (the virtualiser's
  // idle work), which the new session's snapshot may wait behind
  const newSession = await timeNewSession(page, wv, frame, timesFile, watched(server));
  await promptBox(wv).fill(`entries ${ENTRIES}`);
  const done = shown(frame, `ENTRIES-END ${ENTRIES}`);
  await button(wv, 'Send').click();
  await done;
  await page.waitForTimeout(1500);
  // the longest of its idle callbacks over every answer of the window (the page goes with the hidden view)
  const longestIdleMs = await frame.evaluate(() => window.__howdah.virtualizer().longestPolishMs ?? NaN);
  const item = howdahActivityItem(page);
  await item.click(); // hides the side bar: the view's webview is disposed
  await page.locator(WEBVIEW_FRAME).first().waitFor({ state: 'detached', timeout: 20000 }).catch(() => {});
  await page.waitForTimeout(500);
  const clicked = now();
  await item.click();
  // The new webview's content frame: wait for it, then for the last entry in it.
  let inner;
  for (const deadline = Date.now() + 30000; !inner && Date.now() < deadline;) {
    inner = await webviewFrame(page).catch(() => undefined);
    if (!inner || !(await inner.evaluate(() => !!document.querySelector('section.transcript')).catch(() => false))) {
      inner = undefined;
      await page.waitForTimeout(5);
    }
  }
  if (!inner) throw new Error('the Howdah view did not come back');
  await install(inner);
  const shownAt = await inner.evaluate((text) => window.__bench.whenText(text), `ENTRIES-END ${ENTRIES}`);
  const loaded = await inner.evaluate(() => ({ origin: performance.timeOrigin, longestRender: window.__howdah?.renderStats?.().longestMs }));
  return { newSession, longestIdleMs, clickToShown: shownAt - clicked, pageToShown: shownAt - loaded.origin, longestRender: loaded.longestRender ?? NaN, frame: inner };
}

async function oneRun(run, vsix) {
  const runDir = createRunDir('bench-stream');
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.md'), '# stream bench\n');
  const timesFile = path.join(runDir, 'stress-agent-times.jsonl');
  const settings = {
    'howdah.agents': { stress: stressAgent() },
    'howdah.defaultAgent': 'stress',
    'howdah.registry.url': '',
    'git.openRepositoryInParentFolders': 'never',
  };
  const server = await phase(`run ${run}: server start (incl. .vsix install)`, () => startCodeServer({
    runDir, name: 'stream', folder: workspace, settings, vsix: [vsix], logDir: runDir, env: { STRESS_AGENT_TIMES: timesFile, STRESS_AGENT_BATCH: String(AGENT_BATCH || '') },
  }));
  const browser = await launchBrowser(runDir, { width: 1440, height: 900 });
  try {
    const { page } = browser;
    await browser.context.addInitScript(FRAME_PROBE);
    await openWorkbench(page, server.url());
    const wv = await phase(`run ${run}: open the Howdah view`, () => openHowdahView(page));
    const frame = await webviewFrame(page);
    await install(frame);
    const sameProcess = await inProcess(page, frame);
    const result = { sameProcess, sizes: [] };
    result.activation = { vscodeMs: await activationTime(page).catch((e) => { log(`activation time: ${e.message.split('\n')[0]}`); return NaN; }), ...activationLog(server.dataDir) };
    log(`activate() ${result.activation.activateMs} ms (${result.activation.activateCpuMs} ms of CPU)`);
    const hostAfterActivation = procStats(extensionHost(server.pid));
    result.activation.hostRss = hostAfterActivation.rssMiB;
    result.newSession = await phase(`run ${run}: new session`, () => timeNewSession(page, wv, frame, timesFile, watched(server)));
    for (const size of SIZES) result.sizes.push(await phase(`run ${run}: ${size.label}`, () => stream(page, wv, frame, server, timesFile, size)));
    result.reopen = await phase(`run ${run}: ${ENTRIES}-entry session, view reopened`, () => reopenLongSession(page, wv, frame, server, timesFile));
    delete result.reopen.frame;
    return result;
  } finally {
    await browser.close();
    await server.stop();
    removeRunDir(runDir);
  }
}

function pageOnlyBench() {
  if (process.env.STREAM_PAGE_BENCH === '0') return undefined;
  const r = spawnSync(process.execPath, [path.join(REPO, 'test', 'bench', 'webview.mjs'), '--quick'], { cwd: REPO, encoding: 'utf8', timeout: 600_000 });
  return (r.stdout ?? '') + (r.status ? `\n(webview.mjs exited ${r.status}: ${(r.stderr ?? '').split('\n').slice(-5).join(' ')})` : '');
}

let status = 0;
try {
  const vsix = process.env.HOWDAH_VSIX || await phase('package .vsix', () => packageExtension());
  await phase('provision', provision);
  const results = [];
  for (let run = 1; run <= RUNS; run++) results.push(await oneRun(run, vsix));
  const pageOnly = process.env.STREAM_PAGE_BENCH === '0' ? undefined : await phase('page-only bench (webview.mjs --quick)', async () => pageOnlyBench());
  printReport({ results, sizes: SIZES, entries: ENTRIES, runs: RUNS, agentBatch: AGENT_BATCH, pageOnly });
} catch (e) {
  console.error(e.stack ?? e.message);
  status = 1;
} finally {
  const left = await stopEverything();
  if (left.length) { log(`${left.length} process(es) were left behind`); status = 1; }
}
process.exit(status);
