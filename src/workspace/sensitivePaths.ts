import * as l10n from '@vscode/l10n';
/**
 * Files that steer what runs or what the agent itself does: a write there can execute code later (git hooks, shell
 * start-up files, task and launch configs, env files) or rewrite the agent's own rules (.claude, .codex, .mcp.json).
 * Writes to them always ask the user first, whatever `howdah.fs.write` says. Matched on any path component, ignoring
 * case (a case-insensitive file system makes `.GIT` the same folder) and Windows' trailing dots and spaces and short
 * names. Plain Node: no `vscode`.
 */

/** Folders whose whole content is sensitive, wherever they appear. */
const SENSITIVE_FOLDERS = new Map<string, string>([
  ['.git', l10n.t('Git metadata and hooks')],
  ['.hg', l10n.t('Mercurial metadata and hooks')],
  ['.svn', l10n.t('Subversion metadata')],
  ['.vscode', l10n.t('VS Code workspace settings, tasks and launch configurations')],
  ['.claude', l10n.t('Claude Code\'s settings and hooks')],
  ['.codex', l10n.t('Codex\'s settings')],
  ['.gemini', l10n.t('Gemini CLI\'s settings')],
  ['.cursor', l10n.t('Cursor\'s settings and rules')],
  ['.husky', l10n.t('Git hooks')],
  ['.githooks', l10n.t('Git hooks')],
  ['.devcontainer', l10n.t('the dev container definition')],
]);

/** Single files, wherever they appear. */
const SENSITIVE_FILES = new Map<string, string>([
  ['.mcp.json', l10n.t('the MCP servers agents start')],
  ['.gitmodules', l10n.t('Git submodule sources')],
  ['.gitconfig', l10n.t('Git configuration')],
  ['.pre-commit-config.yaml', l10n.t('Git pre-commit hooks')],
  ['lefthook.yml', l10n.t('Git hooks')],
  ['lefthook.yaml', l10n.t('Git hooks')],
  ['.lefthook.yml', l10n.t('Git hooks')],
  ['.bashrc', l10n.t('a shell start-up file')],
  ['.bash_profile', l10n.t('a shell start-up file')],
  ['.bash_login', l10n.t('a shell start-up file')],
  ['.bash_logout', l10n.t('a shell start-up file')],
  ['.profile', l10n.t('a shell start-up file')],
  ['.zshrc', l10n.t('a shell start-up file')],
  ['.zshenv', l10n.t('a shell start-up file')],
  ['.zprofile', l10n.t('a shell start-up file')],
  ['.zlogin', l10n.t('a shell start-up file')],
  ['.zlogout', l10n.t('a shell start-up file')],
  ['.inputrc', l10n.t('a shell start-up file')],
  ['config.fish', l10n.t('a shell start-up file')],
  ['agents.md', l10n.t('the agent\'s instructions')],
  ['claude.md', l10n.t('the agent\'s instructions')],
  ['gemini.md', l10n.t('the agent\'s instructions')],
]);

/** Why writing this path needs the user's consent, or undefined. `paths` are the path as written and as resolved. */
export function sensitiveReason(...paths: string[]): string | undefined {
  for (const p of paths) {
    const components = p
      .split(/[\\/]+/)
      .filter((c) => c.length > 0)
      .map(canonicalName);
    for (let i = 0; i < components.length; i++) {
      const name = components[i];
      const last = i === components.length - 1;
      const folder = SENSITIVE_FOLDERS.get(name) ?? (/^git~\d+$/.test(name) ? l10n.t('Git metadata and hooks') : undefined);
      if (folder && !last) return l10n.t('it is inside {0}/ ({1})', name, folder);
      if (folder && last) return l10n.t('it is {0}', folder);
      if (!last) continue;
      const file = SENSITIVE_FILES.get(name);
      if (file) return l10n.t('it is {0}', file);
      if (name.startsWith('.env')) return l10n.t('it is an environment file read by tools and shells');
    }
  }
  return undefined;
}

/** Lower case, NFC, without the trailing dots and spaces Windows drops (`.git.` opens `.git`). */
function canonicalName(component: string): string {
  const lower = component.normalize('NFC').toLowerCase();
  const trimmed = lower.replace(/[. ]+$/, '');
  return trimmed === '' ? lower : trimmed;
}
