/**
 * Every message of the English bundle pseudo-translated (accented, between ⟦ ⟧), given to `@vscode/l10n`. Imported
 * first by a test, before the modules under test load, so module-level messages are translated too — as in the
 * extension, where src/localization.ts comes first. Each test file is its own bundle with its own translator.
 */
import * as l10n from '@vscode/l10n';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
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

/**
 * The words of `text` outside every pseudo-translated message and not in `data` (what the caller passed in: names,
 * paths, numbers): English that did not go through the translator.
 */
export function strayWords(text: string, data: readonly string[]): string[] {
  let rest = text;
  // Innermost first: a translated message may carry another one as an argument.
  for (let previous = ''; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(new RegExp(`${PSEUDO_OPEN}[^${PSEUDO_OPEN}${PSEUDO_CLOSE}]*${PSEUDO_CLOSE}`, 'gu'), ' ');
  }
  const known = data.join('\n');
  return (rest.match(/[\p{L}\p{N}_'’.\-/@]+/gu) ?? []).filter((word) => /\p{L}/u.test(word) && !known.includes(word));
}
