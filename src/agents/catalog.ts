/**
 * Built-in agents: how to launch each one, how to install it, how to sign in. Launch commands are what identifies an
 * agent; the name an agent reports about itself is never used for that. Versions are not pinned here: the user's
 * installed agent is what runs.
 */
export interface CatalogEntry {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Tried when the agent rejects `args` at start (older versions spell the ACP flag differently). */
  readonly fallbackArgs?: readonly string[];
  /** A shell command that installs the agent, run in a visible terminal only when the user clicks Install. */
  readonly install: string;
  /** A shell command that signs in, offered when the agent needs authentication. */
  readonly signIn?: string;
  readonly docs: string;
  readonly env?: Readonly<Record<string, string>>;
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    command: 'claude-agent-acp',
    args: [],
    install: 'npm install -g @agentclientprotocol/claude-agent-acp',
    signIn: 'claude /login',
    docs: 'https://github.com/agentclientprotocol/claude-agent-acp',
  },
  {
    id: 'codex',
    name: 'Codex',
    command: 'codex-acp',
    args: [],
    install: 'npm install -g @zed-industries/codex-acp',
    signIn: 'codex login',
    docs: 'https://github.com/zed-industries/codex-acp',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    fallbackArgs: ['--experimental-acp'],
    install: 'npm install -g @google/gemini-cli',
    signIn: 'gemini',
    docs: 'https://github.com/google-gemini/gemini-cli',
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot CLI',
    command: 'copilot',
    args: ['--acp'],
    install: 'npm install -g @github/copilot',
    signIn: 'copilot',
    docs: 'https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    install: 'npm install -g opencode-ai',
    signIn: 'opencode auth login',
    docs: 'https://opencode.ai/docs/acp/',
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    command: 'qwen',
    args: ['--acp'],
    fallbackArgs: ['--experimental-acp'],
    install: 'npm install -g @qwen-code/qwen-code',
    signIn: 'qwen',
    docs: 'https://github.com/QwenLM/qwen-code',
  },
  {
    id: 'pi',
    name: 'Pi',
    command: 'pi-acp',
    args: [],
    install: 'npm install -g pi-acp',
    signIn: 'pi',
    docs: 'https://www.npmjs.com/package/pi-acp',
  },
  {
    id: 'cursor',
    name: 'Cursor Agent',
    command: 'cursor-agent',
    args: ['acp'],
    install: 'curl https://cursor.com/install -fsS | bash',
    signIn: 'cursor-agent login',
    docs: 'https://cursor.com/cli',
  },
  {
    id: 'goose',
    name: 'Goose',
    command: 'goose',
    args: ['acp'],
    install: 'curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash',
    signIn: 'goose configure',
    docs: 'https://block.github.io/goose/',
  },
];

export function catalogEntry(id: string): CatalogEntry | undefined {
  return CATALOG.find((e) => e.id === id);
}

/** Whether an agent's stderr says it does not know the ACP flag we passed (then `fallbackArgs` are worth a try). */
export function rejectedArguments(stderr: readonly string[]): boolean {
  return stderr.some((line) => /unknown (argument|option|flag)|unrecognized (argument|option)|invalid option/i.test(line));
}
