// What the stream bench (stream.mjs) runs inside the workbench page and the chat webview: each function is
// self-contained, since playwright serialises it into the page.

/**
 * Installed in every frame (init script, and again by hand in frames that existed before): records long tasks
 * (PerformanceObserver `longtask`, as [start in ms since the epoch, duration]) and when a patch carrying the end of
 * the text `bench.marker` arrived, and offers `whenText` / `whenReady`, which resolve with the time (ms since the epoch) of the first frame
 * after the condition held.
 */
export function FRAME_PROBE() {
  if (window.__bench) return;
  const now = () => performance.timeOrigin + performance.now();
  const bench = (window.__bench = { longtasks: [], marker: undefined, markerReceived: undefined });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longtasks.push([performance.timeOrigin + e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long-task timing in this frame
  }
  // The host's messages as the page receives them: when the text ending in `bench.marker` arrived (before rendering).
  let tail = '';
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!bench.marker || bench.markerReceived !== undefined || !data || data.type !== 'patch' || !Array.isArray(data.ops)) return;
    for (const op of data.ops) {
      const text = op.op === 'append' ? op.delta : op.op === 'entry' ? op.entry?.text : undefined;
      if (typeof text !== 'string') continue;
      tail = (op.op === 'append' ? tail + text : text).slice(-200);
      if (tail.includes(bench.marker)) bench.markerReceived = now();
    }
  }, true);
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
  /** A new, empty conversation with `agentName` that can be typed into: named in the header, not starting. */
  bench.whenReady = (agentName) => new Promise((resolve) => {
    const check = () => {
      const name = document.querySelector('.chat-header .agent-name');
      const ready = name && name.textContent === agentName && !document.querySelector('.chat-header .status-tag')
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
