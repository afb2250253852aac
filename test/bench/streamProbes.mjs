// What the stream bench (stream.mjs) runs inside the workbench page and the chat webview: each function is
// self-contained, since playwright serialises it into the page.

/**
 * Installed in every frame (init script, and again by hand in frames that existed before): records long tasks
 * (PerformanceObserver `longtask`, as [start in ms since the epoch, duration]) and when a patch carrying the end of
 * the text `bench.marker` arrived, and offers `whenText` / `whenReady`, which resolve with the time (ms since the epoch) of the first frame
 * after the condition held.
 */
export function FRAME_PROBE() {
  const now = () => performance.timeOrigin + performance.now();
  if (window.__bench) {
    // VS Code writes the webview's page into its frame with document.open/write, which removes the window's event
    // listeners (not its properties): listen again.
    window.removeEventListener('message', window.__bench.onMessage, true);
    window.addEventListener('message', window.__bench.onMessage, true);
    return;
  }
  const bench = (window.__bench = { longtasks: [], marker: undefined, markerReceived: undefined });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longtasks.push([performance.timeOrigin + e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long-task timing in this frame
  }
  // Long animation frames (Chromium's LoAF timing): what a long frame spent its time on, measured without a profiler
  // slowing the page (ms): its scripts (forced style and layout included), the style and layout they forced, and the
  // frame's own style, layout and paint (from styleAndLayoutStart to its end). What is left of its duration is time
  // between its tasks, scripts of under 5 ms (which the entry does not list) and time the thread waited for a core.
  bench.frames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const scripts = [...(e.scripts ?? [])].sort((a, b) => b.duration - a.duration);
        const end = e.startTime + e.duration;
        bench.frames.push({
          start: performance.timeOrigin + e.startTime,
          duration: e.duration,
          script: scripts.reduce((t, s) => t + s.duration, 0),
          forced: scripts.reduce((t, s) => t + (s.forcedStyleAndLayoutDuration ?? 0), 0),
          render: e.styleAndLayoutStart > 0 ? end - e.styleAndLayoutStart : 0,
          // (its source file says whose: the workbench's, or the webview's page in its frame; the character where its
          // function starts in that file says which of the page's callbacks, e.g. in out/webview.js of the same build)
          longest: scripts[0] ? `${scripts[0].duration.toFixed(0)} ms ${scripts[0].invokerType} ${scripts[0].invoker} ${scripts[0].sourceFunctionName ?? ''} ${(scripts[0].sourceURL ?? '').split('/').pop()}${scripts[0].sourceCharPosition >= 0 ? `@${scripts[0].sourceCharPosition}` : ''}`.replace(/ +/g, ' ').trim() : '',
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // no long-animation-frame timing in this frame
  }
  // The host's messages as the page receives them: when the text ending in `bench.marker` arrived (before rendering).
  let tail = '';
  // a long delta comes as UTF-8 bytes (src/shared/postedText.ts): its end is enough to find the marker
  const utf8 = new TextDecoder();
  const lastText = (delta) => (typeof delta === 'string' ? delta : delta instanceof Uint8Array ? utf8.decode(delta.subarray(-800)) : undefined);
  bench.onMessage = (event) => {
    const data = event.data;
    // armed (null) by the bench before a New Session: when the new session's snapshot arrived, and how many patches
    // (and of them with a flood's fills) came before it: the old session's, still streaming or filling in
    if (bench.snapshotAt === null && data && data.type === 'snapshot') bench.snapshotAt = now();
    if (bench.snapshotAt === null && data && data.type === 'patch' && Array.isArray(data.ops)) {
      bench.patchesBefore++;
      if (data.ops.some((op) => op.op === 'fill')) bench.fillsBefore++;
    }
    if (!bench.marker || bench.markerReceived !== undefined || !data || data.type !== 'patch' || !Array.isArray(data.ops)) return;
    for (const op of data.ops) {
      const text = op.op === 'append' ? lastText(op.delta) : op.op === 'entry' ? op.entry?.text : undefined;
      if (typeof text !== 'string') continue;
      // (a byte delta's decoded end does not follow the tail before it, nor does a flood's newest text, which comes
      // after a skip: each starts the tail again)
      tail = (op.op === 'append' && typeof op.delta === 'string' && op.skip === undefined ? tail + text : text).slice(-200);
      if (tail.includes(bench.marker)) bench.markerReceived = now();
    }
  };
  window.addEventListener('message', bench.onMessage, true);
  const painted = (resolve) => requestAnimationFrame(() => resolve(now()));
  /** `text` within one element of the page: checked on what each mutation touched, never on the whole page. */
  bench.whenText = (text) => new Promise((resolve) => {
    if (document.body && document.body.textContent.includes(text)) return painted(resolve);
    const holds = (node) => {
      const el = node && (node.nodeType === 1 ? node : node.parentElement);
      return !!el && el.textContent.includes(text);
    };
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const hit = r.type === 'characterData' ? holds(r.target) : [...r.addedNodes].some(holds);
        if (hit) {
          observer.disconnect();
          painted(resolve);
          return;
        }
      }
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  });
  /** When the page holds the whole answer: no gap left of text that flooded in (src/panel/floodGaps.ts). */
  bench.whenWhole = () => new Promise((resolve) => {
    const check = () => (document.querySelector('.entry.agent .flood') ? setTimeout(check, 5) : resolve(now()));
    check();
  });
  /** A new, empty conversation with `agentName` that can be typed into: named in the header, not starting. */
  bench.whenReady = (agentName) => new Promise((resolve) => {
    const check = () => {
      const name = document.querySelector('.chat-header .agent-name');
      // armed by the bench (snapshotAt null): not before the new session's snapshot, or an empty session already in
      // front would pass for the new one
      const ready = bench.snapshotAt !== null && name && name.textContent === agentName && !document.querySelector('.chat-header .status-tag')
        && document.querySelector('[aria-label="Prompt"]') && !document.querySelector('section.transcript .entry');
      if (ready) resolve(now());
      else requestAnimationFrame(check);
    };
    check();
  });
}

/** Resolves when `marker` is on the page (see FRAME_PROBE). */
export function watchText(marker) {
  return window.__bench.whenText(marker);
}
