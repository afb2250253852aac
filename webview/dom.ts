import { INVISIBLE_RE, PROSE_RE, revealInvisible, splitInvisible, stripAnsi } from '../src/shared/textSafety';
import * as l10n from '@vscode/l10n';

/**
 * DOM building without HTML strings: text goes in as text nodes, attributes through `setAttribute`. Event handler
 * attributes are refused outright (the CSP would block them anyway; this keeps them out of the code).
 */

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (/^on/i.test(name)) throw new Error(`Event handler attributes are not allowed: ${name}`);
    if (name === 'class') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node & ParentNode, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child);
  }
}

export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/**
 * Text with its hidden characters (bidi controls, zero-width, tags) shown as marked ⟨U+…⟩ labels: for commands,
 * paths, diffs and permission prompts, where what is shown must be exactly what runs.
 */
export function revealed(text: string, re: RegExp = INVISIBLE_RE): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const segment of splitInvisible(text, re)) {
    if (typeof segment === 'string') fragment.append(segment);
    else {
      const cp = (segment.hidden.codePointAt(0) ?? 0).toString(16);
      fragment.append(h('span', { class: 'invisible-char', 'data-cp': cp, title: l10n.t('Hidden character {0}', segment.label) }, `⟨${segment.label}⟩`));
    }
  }
  return fragment;
}

/** Plain text (not Markdown) from the agent: reordering and control characters shown, emoji and scripts intact. */
export function prose(text: string): DocumentFragment {
  return revealed(text, PROSE_RE);
}

/** The same for places that hold only a string (option labels, attributes). */
export function proseString(text: string): string {
  return revealInvisible(text, PROSE_RE);
}

/** Terminal output: escape sequences stripped, hidden characters shown. */
export function terminalText(text: string): DocumentFragment {
  return revealed(stripAnsi(text));
}

/** The text of an element as it was before hidden characters were replaced by labels (for Copy). */
export function originalText(element: Element): string {
  let out = '';
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) out += node.nodeValue ?? '';
    else if (node instanceof HTMLElement && node.classList.contains('invisible-char') && node.dataset.cp) {
      out += String.fromCodePoint(parseInt(node.dataset.cp, 16));
    } else node.childNodes.forEach(walk);
  };
  walk(element);
  return out;
}

/** A status word for people: `in_progress` → `in progress`. */
export function humanize(value: string): string {
  return value.replace(/_/g, ' ');
}

/** A data: URI for an image, only for raster types a browser shows without running anything. */
/** A `data:` URI for base64 audio of an audio/* type, which the CSP's `media-src data:` lets play. */
export function audioDataUri(mimeType: string, data: string): string | undefined {
  const type = mimeType.toLowerCase();
  if (!/^audio\/[a-z0-9.+-]+$/.test(type)) return undefined;
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(data)) return undefined;
  return `data:${type};base64,${data.replace(/\s+/g, '')}`;
}

export function imageDataUri(mimeType: string, data: string): string | undefined {
  const type = mimeType.toLowerCase();
  if (!/^image\/(png|jpeg|gif|webp|bmp)$/.test(type)) return undefined;
  if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) return undefined;
  return `data:${type};base64,${data.replace(/\s+/g, '')}`;
}
