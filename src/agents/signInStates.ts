import * as path from 'node:path';
import * as vscode from 'vscode';
import { runInTerminal } from './terminalRun';
import { checkSignIn, type SignInState } from './signInStatus';

const FRESH_MS = 5 * 60 * 1000;

/** What is needed of an agent (agentRegistry.ts's KnownAgent fits). */
interface KnownAgent {
  readonly id: string;
  readonly name: string;
  readonly env: Readonly<Record<string, string>>;
  readonly catalog?: { readonly signIn?: string; readonly signInStatus?: readonly string[] };
  readonly installed?: { readonly dir: string; readonly method: string };
}

/**
 * What each agent's own CLI says about signing in, for the agent list, checked in the background (the list never
 * waits for it) and again after "Sign in" ran the agent's login in a terminal and that terminal closed. Each account
 * (its own config home in `env`) is checked on its own.
 */
export class SignInStates implements vscode.Disposable {
  private readonly states = new Map<string, { state: SignInState; at: number }>();
  private readonly checking = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly resolve: (command: string) => Promise<string | undefined>) {}

  /** The last known state (checking again in the background when older than 5 minutes); undefined: no way to tell. */
  get(agent: KnownAgent): SignInState | undefined {
    if (!agent.catalog?.signInStatus) return undefined;
    const known = this.states.get(agent.id);
    if (!known || Date.now() - known.at > FRESH_MS) void this.check(agent);
    return known?.state;
  }

  async check(agent: KnownAgent): Promise<SignInState | undefined> {
    const argv = agent.catalog?.signInStatus;
    if (!argv || this.checking.has(agent.id)) return this.states.get(agent.id)?.state;
    this.checking.add(agent.id);
    try {
      const command = (await this.localTool(agent, argv[0]!)) ?? (await this.resolve(argv[0]!));
      const state = command ? await checkSignIn(command, argv.slice(1), agent.env, agent.installed?.dir ?? process.cwd()) : 'unknown';
      const before = this.states.get(agent.id)?.state;
      this.states.set(agent.id, { state, at: Date.now() });
      if (before !== state) this.changed.fire();
      return state;
    } finally {
      this.checking.delete(agent.id);
    }
  }

  /** An npm-installed agent often carries its CLI as a dependency (claude-code-acp has `claude`). */
  private async localTool(agent: KnownAgent, name: string): Promise<string | undefined> {
    if (agent.installed?.method !== 'npx') return undefined;
    const candidate = path.join(agent.installed.dir, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
    return this.resolve(candidate);
  }

  /** Runs the agent's login in a visible terminal, with the agent's environment; checks again when it closes. */
  async signIn(agent: KnownAgent): Promise<void> {
    const login = agent.catalog?.signIn;
    if (!login) return;
    const shell = process.env.SHELL || '/bin/sh';
    await runInTerminal(vscode.l10n.t('Sign in to {0}', agent.name), process.platform === 'win32' ? 'cmd.exe' : shell, process.platform === 'win32' ? ['/c', login] : ['-lc', login], { ...agent.env }, agent.installed?.dir ?? process.cwd());
    this.states.delete(agent.id);
    await this.check(agent);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
