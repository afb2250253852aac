/**
 * Text that comes from an agent may hide what it says: bidirectional controls reorder what is shown ("Trojan
 * Source"), zero-width and tag characters hide text, terminal escape sequences rewrite or recolour it. These pure
 * functions make such text visible (or strip the escapes) before it is shown. Used by the host (notifications) and
 * the webview (rendering); no DOM, no `vscode`.
 */

/** Bidi embeddings, overrides and isolates: reorder text, almost never needed in what an agent writes. */
const BIDI_CONTROLS = '\u202A-\u202E\u2066-\u2069';
/** Marks, zero-width characters and tags: legitimate inside emoji and some scripts, so revealed only where exactness matters. */
const OTHER_INVISIBLES = '\u200E\u200F\u200B-\u200D\u2060-\u2064\uFEFF\u00AD';
const TAGS = '\\u{E0000}-\\u{E007F}';
/** C0 and C1 controls other than tab and newline (an escape sequence in a command or title is shown, not obeyed). */
const CONTROLS = '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F';

/** Every hidden character we reveal in commands, paths, diffs, code and permission prompts. */
export const INVISIBLE_RE = new RegExp(`[${BIDI_CONTROLS}${OTHER_INVISIBLES}${TAGS}${CONTROLS}]`, 'gu');
/** Only the reordering controls: revealed in Markdown prose too, where the others have legitimate uses. */
export const BIDI_RE = new RegExp(`[${BIDI_CONTROLS}]`, 'gu');
/** For plain text that is not Markdown (messages, notices, labels): reordering controls and control characters. */
export const PROSE_RE = new RegExp(`[${BIDI_CONTROLS}${CONTROLS}]`, 'gu');

export function codePointLabel(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A piece of text, or one hidden character to show as a marked label. */
export type Segment = string | { readonly hidden: string; readonly label: string };

/** Splits `text` around the hidden characters `re` matches (default: all of them). */
export function splitInvisible(text: string, re: RegExp = INVISIBLE_RE): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ hidden: m[0], label: codePointLabel(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Plain-text form for places without markup (notifications, titles): each hidden character becomes `⟨U+202E⟩`. */
export function revealInvisible(text: string, re: RegExp = INVISIBLE_RE): string {
  return text.replace(re, (ch) => `⟨${codePointLabel(ch)}⟩`);
}

export function hasInvisible(text: string): boolean {
  INVISIBLE_RE.lastIndex = 0;
  const found = INVISIBLE_RE.test(text);
  INVISIBLE_RE.lastIndex = 0;
  return found;
}

/** Terminal control sequences are removed by the same code that shows command output (one definition of them). */
export { stripAnsi } from './ansi';

/** The text without its hidden characters: what a reader of the revealed form would take it to be. */
export function removeInvisible(text: string): string {
  return text.replace(INVISIBLE_RE, '');
}
