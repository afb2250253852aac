// What every streaming dialect shares.

/** Splits `text` into pieces of about `size` characters (never inside a surrogate pair), for streaming. */
export function pieces(text, size = 12) {
  const chars = Array.from(text);
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

/**
 * For a step `{ text, stall: true }`: after the text has streamed, the response never finishes; this resolves
 * when the agent gives up on it (closes the connection, as a cancelled turn does) or after `maxMs`, so a test
 * can cancel the turn while the model is "still talking". Every dialect honours `stall` the same way.
 */
export function stallUntilClosed(res, maxMs = 60000) {
  return new Promise(resolve => {
    const timer = setTimeout(done, maxMs);
    function done() { clearTimeout(timer); resolve(); }
    res.once('close', done);
  });
}
