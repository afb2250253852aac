// Phase timing: every phase of a run prints how long it took, in one recognisable format.

const started = Date.now();

export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Logs a harness line, prefixed with the time since this process started. */
export function log(...args) {
  console.log(`[harness +${seconds(Date.now() - started)}]`, ...args);
}

/** Runs `fn`, then prints `⏱ name: X s` (also when it throws). */
export async function phase(name, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    console.log(`⏱ ${name}: ${seconds(Date.now() - t0)}`);
  }
}
