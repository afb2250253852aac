// The stream bench's report (stream.mjs): every figure as min / median / max over the fresh windows, with its target.

const sorted = (xs) => xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
function mmm(xs, digits = 0) {
  const s = sorted(xs);
  if (!s.length) return 'n/a';
  const f = (x) => x.toFixed(digits);
  return `${f(s[0])} / ${f(s[Math.floor(s.length / 2)])} / ${f(s[s.length - 1])}`;
}
const row = (label, values, unit, target = '', digits = 0) => console.log(`    ${label.padEnd(44)} ${mmm(values, digits).padStart(22)} ${unit.padEnd(4)} ${target}`);

const CPU_ROLES = [['agent', 'stress agent'], ['extensionHost', 'extension host'], ['server', "code-server's others"], ['renderer', "Chromium's renderers"], ['gpu', "Chromium's GPU process"], ['chromium', "Chromium's others"], ['other', 'other']];

/**
 * Prints what `runs` fresh windows measured (`results`, one per window, as stream.mjs's oneRun returns), for the
 * answer `sizes` and the `entries`-entry session, then the page-only bench's output (`pageOnly`, when it ran).
 */
export function printReport({ results, sizes, entries, runs, agentBatch, pageOnly }) {
  console.log(`\nstream: the .vsix in code-server, the stress agent over stdio; min / median / max of ${runs} fresh windows`);
  if (agentBatch) console.log(`  the stress agent writes its answers ${agentBatch} bytes at a time (STRESS_AGENT_BATCH), not a message at a time`);
  console.log(`  webview frame in the workbench's renderer process: ${results.map((r) => (r.sameProcess ? 'yes' : 'no')).join(', ')}`);
  console.log('  start-up:');
  row('activation (VS Code: code loading + activate)', results.map((r) => r.activation.vscodeMs), 'ms');
  row('activate() itself (logged)', results.map((r) => r.activation.activateMs), 'ms', '', 1);
  row('  the extension host\'s CPU meanwhile', results.map((r) => r.activation.activateCpuMs), 'ms', '', 1);
  row('extension-host heap after activation', results.map((r) => r.activation.heapMiB), 'MiB', '', 1);
  row('extension-host RSS after activation', results.map((r) => r.activation.hostRss), 'MiB');
  row('New Session: click → ready to type', results.map((r) => r.newSession.clickToReady), 'ms');
  row('New Session: agent answered → ready to type', results.map((r) => r.newSession.answerToReady), 'ms', '[target ≤ 100]');
  // every New Session of the run (one before each stream too), and where its time went
  const sessions = results.flatMap((r) => [r.newSession, ...r.sizes.map((size) => size.newSession)]);
  row(`  every New Session (${sessions.length}): answered → ready`, sessions.map((n) => n.answerToReady), 'ms', '[target ≤ 100]');
  row('    answered → its snapshot in the page', sessions.map((n) => n.answerToSnapshot), 'ms');
  row('    snapshot in the page → ready to type', sessions.map((n) => n.snapshotToReady), 'ms');
  row(`  New Session right after the ${sizes.at(-1)?.label ?? 'last'} answer`, results.map((r) => r.reopen.newSession.answerToReady), 'ms', '[target ≤ 100]');
  row("  webview: virtualiser's longest idle callback", results.map((r) => r.reopen.longestIdleMs), 'ms');
  sizes.forEach((size, i) => {
    const of = (key) => results.map((r) => r.sizes[i][key]);
    console.log(`  ${size.label}:`);
    row("agent's last write (after Send)", of('agentLastWrite'), 'ms');
    row('Send → final text visible', of('sendToVisible'), 'ms');
    row('last write → final text visible', of('lastWriteToVisible'), 'ms', '[target ≤ 250]');
    row('last write → its patch received in the page', of('lastWriteToReceived'), 'ms');
    row('last write → the whole answer in the page', of('lastWriteToWhole'), 'ms');
    row('workbench: longest task while streaming', of('pageLongestStreaming'), 'ms', '[target ≤ 50]');
    row('workbench: longest task after last write', of('pageLongestCompletion'), 'ms', '[target ≤ 100]');
    row('workbench: tasks > 50 ms', of('pageOver50'), '');
    row('webview: longest task while streaming', of('frameLongestStreaming'), 'ms', '[target ≤ 50]');
    row('webview: longest task after last write', of('frameLongestCompletion'), 'ms', '[target ≤ 100]');
    row('webview: tasks > 50 ms', of('frameOver50'), '');
    const loaf = (key) => results.map((r) => r.sizes[i].loaf[key]);
    row('longest animation frame while streaming', loaf('duration'), 'ms');
    row('  its scripts (forced style+layout included)', loaf('script'), 'ms');
    row('  style+layout forced by its scripts', loaf('forced'), 'ms');
    row('  its own style, layout and paint', loaf('render'), 'ms');
    row('  its main thread running', loaf('ran'), 'ms');
    row('  its main thread waiting for a core', loaf('waited'), 'ms');
    // (the kernel's run-queue wait, /proc schedstat: streamSched.mjs)
    row("renderer's main thread ran, Send → visible", of('rendererRan'), 'ms');
    row('  and waited for a core', of('rendererWaited'), 'ms');
    row("extension host's main thread ran, Send → visible", of('hostRan'), 'ms');
    row('  and waited for a core', of('hostWaited'), 'ms');
    row('webview DOM elements at the end', of('elements'), '', '[target ≤ 5000]');
    row('webview DOM nodes at the end', of('nodes'), '');
    row('extension host CPU (Send → visible + 1.5 s)', of('hostCpu'), 'ms');
    row('extension host RSS at the end', of('hostRss'), 'MiB');
    // Where the machine's CPU went from Send to the text visible: 2 cores give at most 2 × the wall time.
    const cpu = (key) => results.map((r) => r.sizes[i].cpu[key]);
    for (const [key, label] of CPU_ROLES) row(`CPU Send → visible: ${label}`, cpu(key), 'ms');
    if (results.every((r) => r.sizes[i].trace)) {
      // (the profile itself slows the renderer: these runs' other figures are not comparable with unprofiled ones)
      const traced = (key) => results.map((r) => r.sizes[i].trace[key]);
      row('trace: renderer tasks > 50 ms (wall)', traced('over50'), '');
      row('trace: their thread time, most', traced('longThreadMax'), 'ms');
      row('trace: their thread time, median', traced('longThreadMedian'), 'ms');
      row('trace: main thread ran ÷ its tasks’ wall time', results.map((r) => r.sizes[i].trace.threadMs / r.sizes[i].trace.wallMs), '', '', 2);
    }
    if (results.every((r) => r.sizes[i].hostProfile)) {
      row('profile: extension host busy, Send → visible', results.map((r) => r.sizes[i].hostProfile.busyMs), 'ms');
      for (const r of results) console.log(`    heaviest (self ms): ${r.sizes[i].hostProfile.top.map((f) => `${f.name} ${f.ms}`).join(' · ')}`);
    }
    row('CPU Send → visible: all ÷ wall time (cores busy)', results.map((r) => Object.values(r.sizes[i].cpu).reduce((a, b) => a + b, 0) / r.sizes[i].sendToVisible), '', '', 2);
    row('renderer RSS at the end (largest)', of('rendererRss'), 'MiB');
  });
  console.log(`  ${entries.toLocaleString('en')}-entry session, view closed and opened again:`);
  row('click → last entry shown', results.map((r) => r.reopen.clickToShown), 'ms');
  row('webview page loaded → last entry shown', results.map((r) => r.reopen.pageToShown), 'ms');
  row("the page's longest render (snapshot → DOM)", results.map((r) => r.reopen.longestRender), 'ms', '[target ≤ 100]');
  if (pageOnly !== undefined) {
    console.log('  page-only bench, same run (webview.mjs --quick: the page alone in Chromium, fake host):');
    for (const l of pageOnly.split('\n').filter(Boolean)) console.log(`    | ${l}`);
  }
}
