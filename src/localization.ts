import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/**
 * Code that cannot import `vscode` (src/session, src/acp, src/shared, the adapters unit-tested in plain Node)
 * translates through `@vscode/l10n`; here it is given the bundle VS Code loaded for this extension, so both kinds of
 * call site read the same translations. Done when this module loads (imported first by extension.ts), before any
 * module-level message is built. English has no bundle: messages are their own English text.
 */
if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });

/** What the chat page needs to speak the user's language: the bundle (none for English) and the language tag. */
export function pageLocalization(): { readonly language: string; readonly bundle: Readonly<Record<string, string>> | undefined } {
  return { language: vscode.env.language, bundle: vscode.l10n.bundle };
}
