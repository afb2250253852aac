/**
 * Time (ms) spent rendering completed Markdown per frame, over every message the frame touches. A burst (a slow
 * frame, a flood of patches, the host's backlog at the end of a turn) is taken this much at a time in the following
 * frames, so no frame parses and lays out a burst at once, and the page keeps up with however fast the agent writes
 * as far as the machine can.
 */
export const FRAME_BUDGET_MS = 8;

/** When the frame's render started by `beginFrame` has used its budget (0: no frame is being rendered). */
let frameEnd = 0;

/**
 * A frame's render starts: until `endFrame`, every message's rendering shares one budget. The transcript's render
 * drains the backlog, appends the patch's text and settles the message that ended, each of which renders Markdown;
 * with a budget each, one frame spent three budgets and a garbage collection on top (frames of 50–60 ms at 10 MiB).
 */
export function beginFrame(): void {
  frameEnd = performance.now() + FRAME_BUDGET_MS;
}

export function endFrame(): void {
  frameEnd = 0;
}

/** The time by which work started now should stop: its own budget, cut to what the frame has left. */
export function deadline(budgetMs: number): number {
  const own = performance.now() + budgetMs;
  return frameEnd > 0 ? Math.min(own, frameEnd) : own;
}
