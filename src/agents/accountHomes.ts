/**
 * Agents that read their whole configuration (credentials included) from a folder named by one environment variable:
 * setting it to a folder of its own gives a second, separate account. The one table of them, each with where that is
 * documented. No `vscode` here.
 */
export const ACCOUNT_HOMES: Readonly<Record<string, { readonly variable: string; readonly source: string }>> = {
  'claude-code': {
    variable: 'CLAUDE_CONFIG_DIR',
    source: 'Claude Code settings, environment variables: https://docs.anthropic.com/en/docs/claude-code/settings#environment-variables',
  },
  codex: {
    variable: 'CODEX_HOME',
    source: 'Codex configuration, "CODEX_HOME" (default ~/.codex): https://github.com/openai/codex/blob/main/docs/config.md',
  },
  grok: {
    variable: 'GROK_HOME',
    // Not checked against Grok CLI's own documentation (not reachable from here); taken from issue 18.
    source: 'issue 18 (Grok CLI reads GROK_HOME); not verified against Grok CLI documentation',
  },
};

/** A second account of an agent: its own entry ("Codex (Work)") with the agent's config home in its own folder. */
export interface AccountRecord {
  readonly id: string;
  readonly baseId: string;
  readonly label: string;
}

/** `codex` + "Work" → `codex-work`; a label that reduces to nothing gives `codex-account`. */
export function accountId(baseId: string, label: string): string {
  const slug = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${baseId}-${slug || 'account'}`;
}

export function parseAccounts(raw: unknown): AccountRecord[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (r): r is AccountRecord =>
      typeof r === 'object' && r !== null && typeof (r as AccountRecord).id === 'string' && typeof (r as AccountRecord).baseId === 'string' && typeof (r as AccountRecord).label === 'string' && (r as AccountRecord).baseId in ACCOUNT_HOMES,
  );
}
