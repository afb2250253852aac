/**
 * What Howdah knows about agents beyond the ACP registry (src/agents/registry/): the launch flags, sign-in commands
 * and documentation the registry does not carry, keyed by Howdah's own ids (settings and saved conversations name
 * them, so they stay) and tied to the registry entry they extend. A few agents are not in the registry; for those
 * the entry says which command a user's own install puts on PATH. Nothing here installs anything: installing is the
 * registry installer's job. Launch commands identify an agent; the name it reports about itself never does.
 */
export interface CatalogEntry {
  readonly id: string;
  /** The registry entry this one extends (its name, versions, downloads); absent for agents not in the registry. */
  readonly registryId?: string;
  /** Shown when the registry has no entry (or the snapshot is older than the agent). */
  readonly name: string;
  /** The command a user's own (global) install provides, found on PATH; used when Howdah did not install it. */
  readonly command: string;
  readonly args: readonly string[];
  /** Tried when the agent rejects `args` at start (older versions spell the ACP flag differently). */
  readonly fallbackArgs?: readonly string[];
  /** A shell command that signs in, offered when the agent needs authentication. */
  readonly signIn?: string;
  readonly docs: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The agent's own CLI command that says whether it is signed in (run without a shell, before starting it). */
  readonly signInStatus?: readonly string[];
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    id: 'claude-code',
    registryId: 'claude-code-acp',
    name: 'Claude Code',
    command: 'claude-agent-acp',
    args: [],
    signIn: 'claude /login',
    docs: 'https://github.com/agentclientprotocol/claude-agent-acp',
    signInStatus: ['claude', 'auth', 'status'],
  },
  {
    id: 'codex',
    registryId: 'codex-acp',
    name: 'Codex',
    command: 'codex-acp',
    args: [],
    signIn: 'codex login',
    docs: 'https://github.com/zed-industries/codex-acp',
    signInStatus: ['codex', 'login', 'status'],
  },
  {
    id: 'gemini',
    registryId: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    fallbackArgs: ['--experimental-acp'],
    signIn: 'gemini',
    docs: 'https://github.com/google-gemini/gemini-cli',
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot CLI',
    command: 'copilot',
    args: ['--acp'],
    signIn: 'copilot',
    docs: 'https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli',
  },
  {
    id: 'opencode',
    registryId: 'opencode',
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    signIn: 'opencode auth login',
    docs: 'https://opencode.ai/docs/acp/',
    signInStatus: ['opencode', 'auth', 'list'],
  },
  {
    id: 'qwen-code',
    registryId: 'qwen-code',
    name: 'Qwen Code',
    command: 'qwen',
    args: ['--acp'],
    fallbackArgs: ['--experimental-acp'],
    signIn: 'qwen',
    docs: 'https://github.com/QwenLM/qwen-code',
  },
  {
    id: 'pi',
    name: 'Pi',
    command: 'pi-acp',
    args: [],
    signIn: 'pi',
    docs: 'https://www.npmjs.com/package/pi-acp',
  },
  {
    id: 'cursor',
    name: 'Cursor Agent',
    command: 'cursor-agent',
    args: ['acp'],
    signIn: 'cursor-agent login',
    docs: 'https://cursor.com/cli',
    signInStatus: ['cursor-agent', 'status'],
  },
  {
    id: 'goose',
    name: 'Goose',
    command: 'goose',
    args: ['acp'],
    signIn: 'goose configure',
    docs: 'https://block.github.io/goose/',
  },
];

export function catalogEntry(id: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.id === id);
}

/** The catalog entry extending a registry entry. */
export function catalogForRegistry(registryId: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.registryId === registryId);
}

/** Whether an agent's stderr says it does not know the ACP flag we passed (then `fallbackArgs` are worth a try). */
export function rejectedArguments(stderr: readonly string[]): boolean {
  return stderr.some((line) => /unknown (argument|option|flag)|unrecognized (argument|option)|invalid option/i.test(line));
}
