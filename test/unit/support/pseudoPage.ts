/**
 * The chat page in a pseudo-locale, for the unit tier: a happy-dom window stands in for the webview, and the page's
 * translator is given every message of the English bundle pseudo-translated (accented, between ⟦ ⟧). Imported first
 * by the test, before any webview module runs, so module-level messages are translated too — as in the real page,
 * where webview/localizePage.ts comes first.
 */
import * as l10n from '@vscode/l10n';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { Window } from 'happy-dom';
import english from '../../../l10n/bundle.l10n.json';

export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

/** message → ⟦pseudo-translation⟧, placeholders kept. */
export function pseudoBundle(bundle: Record<string, string>): Record<string, string> {
  const accented = getL10nPseudoLocalized(bundle) as Record<string, string>;
  return Object.fromEntries(Object.entries(accented).map(([key, text]) => [key, `${PSEUDO_OPEN}${text}${PSEUDO_CLOSE}`]));
}

export const englishBundle: Record<string, string> = english;
l10n.config({ contents: pseudoBundle(englishBundle) });

export const posted: unknown[] = [];
export const pageWindow = new Window({ url: 'https://howdah.invalid/', width: 800, height: 1200 });
const globals = globalThis as Record<string, unknown>;
for (const name of Object.getOwnPropertyNames(pageWindow)) {
  if (/^[A-Z]/.test(name) && !(name in globals)) globals[name] = (pageWindow as unknown as Record<string, unknown>)[name];
}
Object.assign(globals, {
  window: pageWindow,
  document: pageWindow.document,
  requestAnimationFrame: (callback: (time: number) => void) => pageWindow.requestAnimationFrame(callback),
  cancelAnimationFrame: (handle: number) => pageWindow.cancelAnimationFrame(handle as never),
  getComputedStyle: (element: Element) => pageWindow.getComputedStyle(element as never),
  acquireVsCodeApi: () => ({ postMessage: (m: unknown) => posted.push(m), getState: () => undefined, setState: () => undefined }),
});
if (!('navigator' in globals)) globals.navigator = pageWindow.navigator;
