/**
 * Files that steer what runs or what the agent itself does: a write there can execute code later (git hooks, shell
 * start-up files, task and launch configs, env files) or rewrite the agent's own rules (.claude, .codex, .mcp.json).
 * Writes to them always ask the user first, whatever `howdah.fs.write` says. Matched on any path component, ignoring
 * case (a case-insensitive file system makes `.GIT` the same folder) and Windows' trailing dots and spaces and short
 * names. Plain Node: no `vscode`.
 */

/** Folders whose whole content is sensitive, wherever they appear. */
const SENSITIVE_FOLDERS = new Map<string, string>([
  ['.git', 'Git metadata and hooks'],
  ['.hg', 'Mercurial metadata and hooks'],
  ['.svn', 'Subversion metadata'],
  ['.vscode', 'VS Code workspace settings, tasks and launch configurations'],
  ['.claude', "Claude Code's settings and hooks"],
  ['.codex', "Codex's settings"],
  ['.gemini', "Gemini CLI's settings"],
  ['.cursor', "Cursor's settings and rules"],
  ['.husky', 'Git hooks'],
  ['.githooks', 'Git hooks'],
  ['.devcontainer', 'the dev container definition'],
]);

/** Single files, wherever they appear. */
const SENSITIVE_FILES = new Map<string, string>([
  ['.mcp.json', 'the MCP servers agents start'],
  ['.gitmodules', 'Git submodule sources'],
  ['.gitconfig', 'Git configuration'],
  ['.pre-commit-config.yaml', 'Git pre-commit hooks'],
  ['lefthook.yml', 'Git hooks'],
  ['lefthook.yaml', 'Git hooks'],
  ['.lefthook.yml', 'Git hooks'],
  ['.bashrc', 'a shell start-up file'],
  ['.bash_profile', 'a shell start-up file'],
  ['.bash_login', 'a shell start-up file'],
  ['.bash_logout', 'a shell start-up file'],
  ['.profile', 'a shell start-up file'],
  ['.zshrc', 'a shell start-up file'],
  ['.zshenv', 'a shell start-up file'],
  ['.zprofile', 'a shell start-up file'],
  ['.zlogin', 'a shell start-up file'],
  ['.zlogout', 'a shell start-up file'],
  ['.inputrc', 'a shell start-up file'],
  ['config.fish', 'a shell start-up file'],
  ['agents.md', "the agent's instructions"],
  ['claude.md', "the agent's instructions"],
  ['gemini.md', "the agent's instructions"],
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
      const folder = SENSITIVE_FOLDERS.get(name) ?? (/^git~\d+$/.test(name) ? 'Git metadata and hooks' : undefined);
      if (folder && !last) return `it is inside ${name}/ (${folder})`;
      if (folder && last) return `it is ${folder}`;
      if (!last) continue;
      const file = SENSITIVE_FILES.get(name);
      if (file) return `it is ${file}`;
      if (name.startsWith('.env')) return 'it is an environment file read by tools and shells';
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
