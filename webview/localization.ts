import * as l10n from '@vscode/l10n';
import { z } from 'zod';
import { L10N_ELEMENT_ID } from '../src/shared/pageLocalization';

/** The translations the host put in the page: message → translation. */
const Bundle = z.record(z.string(), z.string());

/**
 * Points the page's translator at the bundle the host put in the page (none, or an empty one, is English). Called by
 * main.ts's first import (localizePage.ts), before any module builds a message; a bundle that does not parse is refused in the console
 * and the page stays English rather than half-translated.
 */
export function loadPageLocalization(doc: Document): void {
  const text = doc.getElementById(L10N_ELEMENT_ID)?.textContent;
  if (!text) return;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    console.error(`Howdah: the page's translations are not JSON (${String(error)}); showing English.`);
    return;
  }
  const parsed = Bundle.safeParse(raw);
  if (!parsed.success) {
    console.error(`Howdah: the page's translations are not a message → text map (${parsed.error.issues.map((i) => `${i.path.join('.') || 'bundle'}: ${i.message}`).join('; ')}); showing English.`);
    return;
  }
  l10n.config({ contents: parsed.data });
}
