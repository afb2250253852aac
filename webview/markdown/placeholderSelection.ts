// The page's selection where groups of a long answer are placeholders (see blockVirtualizer.ts): which groups hold it,
// a find match kept across a placeholder rendered again, and a copy that reads as if every group were rendered.

/**
 * The selection's anchor and focus now: a group holding either is not replaced (the selection would collapse). Read
 * once per slice of work: asking the document for its selection costs ~80 µs (Chromium 156), and a slice replaces
 * many groups.
 */
export function selectedNodes(): readonly Node[] {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0) return [];
  return [selection.anchorNode, selection.focusNode].filter((node): node is Node => node !== null);
}

export function holds(element: Element, nodes: readonly Node[]): boolean {
  return nodes.some((node) => element.contains(node));
}

/** The selected text and how many times it occurs before the selection in the placeholder's text. */
export function selectionIn(element: HTMLElement): { text: string; before: number } | undefined {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0) return undefined;
  const range = selection.getRangeAt(0);
  if (!element.contains(range.startContainer)) return undefined;
  const text = selection.toString();
  const content = (element.textContent ?? '').toLowerCase();
  const start = range.startContainer === element.firstChild ? range.startOffset : 0;
  let before = 0;
  const needle = text.toLowerCase();
  if (needle) for (let at = content.indexOf(needle); at >= 0 && at < start; at = content.indexOf(needle, at + 1)) before++;
  return { text, before };
}

/** Selects the same occurrence of `text` in the rendered group (with the browser's own find, as VS Code's find does). */
export function reselect(element: HTMLElement, selected: { text: string; before: number }): void {
  const selection = document.getSelection();
  if (!selection) return;
  selection.collapse(element, 0);
  if (!selected.text) return;
  const find = (window as unknown as { find?: (text: string, caseSensitive: boolean, backwards: boolean, wrap: boolean) => boolean }).find;
  if (!find) return;
  for (let i = 0; i <= selected.before; i++) {
    if (!find.call(window, selected.text, false, false, false)) break;
  }
  if (selection.anchorNode && !element.contains(selection.anchorNode)) selection.collapse(element, 0);
}

/**
 * The text a copy of the page's selection gives as if every group in it were rendered, or undefined when the
 * selection holds no placeholder (the browser's own copy is then exact). A placeholder's innerText has the rendered
 * group's words but not always the same line breaks between blocks as the browser's copy (after a list, say), so
 * the placeholders in the selection are rendered (`render`) for the moment of the copy, the browser serialises the
 * selection, and they are put back. A copy of a whole 10 MiB answer costs seconds this way; it is what makes it exact.
 */
export function copiedAsRendered(root: HTMLElement, render: (placeholder: HTMLElement) => DocumentFragment | undefined): string | undefined {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return undefined;
  const range = selection.getRangeAt(0);
  const inside = [...root.querySelectorAll<HTMLElement>('.md-placeholder')].filter((el) => range.intersectsNode(el));
  if (inside.length === 0) return undefined;
  // a selection that ends inside a placeholder (a find match) is of the placeholder's own text: copied as it is
  if (inside.some((el) => el.contains(range.startContainer) || el.contains(range.endContainer))) return undefined;
  const saved = inside.map((element) => ({ element, text: element.textContent ?? '', height: element.style.height, className: element.className }));
  for (const { element } of saved) {
    const rendered = render(element);
    if (!rendered) continue;
    element.replaceChildren(rendered);
    element.classList.remove('md-placeholder', 'md-unmeasured');
    element.style.removeProperty('height');
  }
  const text = selection.toString();
  for (const { element, text: placeholder, height, className } of saved) {
    element.replaceChildren(placeholder);
    element.className = className;
    element.style.height = height;
  }
  return text;
}
