/**
 * The chat page in a pseudo-locale, for the unit tier: a happy-dom window stands in for the webview, and the page's
 * translator is given every message of the English bundle pseudo-translated (accented, between ⟦ ⟧). Imported first
 * by the test, before any webview module runs, so module-level messages are translated too — as in the real page,
 * where webview/localizePage.ts comes first.
 */
import { Window } from 'happy-dom';
export { PSEUDO_CLOSE, PSEUDO_OPEN, englishBundle, pseudoBundle } from './pseudoBundle';

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
