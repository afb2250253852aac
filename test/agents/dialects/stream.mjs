// What every streaming dialect shares.

/** Splits `text` into pieces of about `size` characters (never inside a surrogate pair), for streaming. */
export function pieces(text, size = 12) {
  const chars = Array.from(text);
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}
