import * as l10n from '@vscode/l10n';
/**
 * The Problems of files written out for an agent: one line per diagnostic, `path:line:column severity source(code):
 * message`, errors first, capped. Pure: the VS Code adapter (editorContext.ts) passes plain objects.
 */
export interface Problem {
  /** Workspace-relative path. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

/** More than this many are counted, not listed. */
export const MAX_PROBLEMS = 200;

const ORDER = { error: 0, warning: 1, info: 2, hint: 3 };

export function problemsText(problems: readonly Problem[]): string {
  const sorted = [...problems].sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const lines = sorted.slice(0, MAX_PROBLEMS).map((p) => {
    const origin = p.source ? ` ${p.source}${p.code ? `(${p.code})` : ''}` : p.code ? ` (${p.code})` : '';
    return `${p.path}:${p.line}:${p.column} ${p.severity}${origin}: ${p.message.replace(/\s*\n\s*/g, ' ')}`;
  });
  if (sorted.length > MAX_PROBLEMS) lines.push(l10n.t('… and {0} more not listed.', sorted.length - MAX_PROBLEMS));
  return lines.join('\n');
}
