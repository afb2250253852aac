import type { HostMessage, PatchMessage, PatchOp } from './protocol';

/**
 * How a patch's appended text (and a flood's fill) crosses from the extension host to the page. VS Code posts a webview message as JSON
 * inside the JSON of its own RPC message (escaped and parsed twice); a Uint8Array goes beside it as raw bytes and is
 * transferred into the page. A streamed answer's text is nearly all the page receives; as bytes, a 10 MiB answer in
 * the real window (the stream bench, 6 windows each) was visible 137–293 ms after the agent's last write against
 * 165–412 ms, with 0–5 tasks over 50 ms against 0–11, and ~15% less CPU in the extension host and in Chromium. Short
 * deltas stay strings (a buffer costs more than it saves on a few characters).
 */
export const BYTES_FROM = 4 * 1024;

/** The ops that carry a message's text (appended, or filling a flood's gap). */
type TextOp = Extract<PatchOp, { op: 'append' | 'fill' }>;
/** A text op as posted: its delta as a string or as its UTF-8 bytes. */
export type PostedTextOp = TextOp extends infer Op ? (Op extends TextOp ? Omit<Op, 'delta'> & { readonly delta: string | Uint8Array } : never) : never;
export type PostedPatchMessage = Omit<PatchMessage, 'ops'> & { readonly ops: readonly (Exclude<PatchOp, TextOp> | PostedTextOp)[] };
/** A host message as `webview.postMessage` carries it. */
export type PostedHostMessage = Exclude<HostMessage, PatchMessage> | PostedPatchMessage;

/**
 * Lone surrogates (half of a pair cut at a chunk's end, or an agent's malformed text) have no UTF-8 form: TextEncoder
 * would make them U+FFFD. Such a delta is posted as a string, which keeps every code unit.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** The message as posted: long, well-formed deltas as UTF-8 bytes (`encode`: TextEncoder's). */
export function toPosted(message: HostMessage, encode: (text: string) => Uint8Array): PostedHostMessage {
  if (message.type !== 'patch') return message;
  let encoded = false;
  const ops = message.ops.map((op) => {
    if (!asBytes(op)) return op;
    encoded = true;
    return { ...op, delta: encode(op.delta) };
  });
  return encoded ? { ...message, ops } : message;
}

/** The message as the page works on it: every delta a string again (`decode`: TextDecoder's). */
export function fromPosted(message: PostedHostMessage, decode: (bytes: Uint8Array) => string): HostMessage {
  if (message.type !== 'patch') return message;
  let decoded = false;
  const ops = message.ops.map((op): PatchOp => {
    if ((op.op !== 'append' && op.op !== 'fill') || typeof op.delta === 'string') return op as PatchOp;
    decoded = true;
    return { ...op, delta: decode(op.delta) };
  });
  return decoded ? { ...message, ops } : (message as PatchMessage);
}

function asBytes(op: PatchOp): op is TextOp {
  return (op.op === 'append' || op.op === 'fill') && op.delta.length >= BYTES_FROM && !LONE_SURROGATE.test(op.delta);
}
