import * as vscode from 'vscode';
import { runInTerminal } from './terminalRun';
import type { LaunchSpec } from '../acp/agentProcess';
import type { AuthMethod } from '../acp/schema/agentMethods';
import type { KnownAgent } from './agentRegistry';
import { authenticateParams, takesKey } from './authKeys';

/** One way to sign in, as a button. */
export interface SignInChoice {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  /** The method takes a key the user types (Gemini's "Gemini API key"): sent to the agent, never stored by Howdah. */
  readonly asksForKey?: boolean;
}

/** The user's answer: a choice, and the key typed for a choice that asks for one (else Howdah asks in an input box). */
export interface SignInAnswer {
  readonly choiceId: string;
  readonly key?: string;
}

/** What the panel shows while an agent waits for the user to sign in. */
export interface SignInRequest {
  readonly agentId: string;
  readonly agentName: string;
  /** The agent's own words: often useful ("set GEMINI_API_KEY", a device code). */
  readonly message: string;
  readonly choices: readonly SignInChoice[];
}

/** How the sign-in ended: `authenticated` on this connection, `restart` (a terminal login: reconnect), or `cancelled`. */
export type SignInOutcome = 'authenticated' | 'restart' | 'cancelled';

const CATALOG_CHOICE = 'catalog-sign-in';

/** The choices for an agent's `authMethods` plus the catalog's sign-in command; unknown method types are left out. */
export function signInChoices(agent: KnownAgent, methods: readonly AuthMethod[], terminalAuth: boolean): SignInChoice[] {
  const choices: SignInChoice[] = [];
  for (const method of methods) {
    if (method.type === 'agent') choices.push({ id: method.id, label: method.name, description: method.description ?? undefined, ...(takesKey(method) ? { asksForKey: true } : {}) });
    else if (method.type === 'terminal' && terminalAuth) {
      // Said once: "Log in in a terminal", not "Log in in a terminal (in a terminal)".
      const label = /terminal/i.test(method.name) ? method.name : vscode.l10n.t('{0} (in a terminal)', method.name);
      choices.push({ id: method.id, label, description: method.description ?? undefined });
    }
  }
  if (agent.catalog?.signIn) choices.push({ id: CATALOG_CHOICE, label: vscode.l10n.t('Run "{0}" in a terminal', agent.catalog.signIn) });
  return choices;
}

/**
 * Carries out the user's choice: an agent method is `authenticate`d on the open connection (with the key the user typed,
 * for a method that takes one: asked for here when the answer did not bring it); a terminal method runs the
 * agent's own command with the method's args and env in a visible terminal (the agent cannot choose the command), and
 * the connection must then be restarted; the catalog's sign-in command likewise.
 */
export async function carryOutSignIn(
  answer: SignInAnswer,
  agent: KnownAgent,
  spec: LaunchSpec,
  methods: readonly AuthMethod[],
  authenticate: (params: { methodId: string; _meta?: Record<string, unknown> }) => Promise<void>,
): Promise<SignInOutcome> {
  const { choiceId } = answer;
  if (choiceId === CATALOG_CHOICE && agent.catalog?.signIn) {
    const shell = process.env.SHELL || '/bin/sh';
    const code = await runInTerminal(vscode.l10n.t('Sign in to {0}', agent.name), process.platform === 'win32' ? 'cmd.exe' : shell, process.platform === 'win32' ? ['/c', agent.catalog.signIn] : ['-lc', agent.catalog.signIn], { ...spec.env }, spec.cwd);
    return code === 0 ? 'restart' : 'cancelled';
  }
  const method = methods.find((m) => m.id === choiceId);
  if (!method) return 'cancelled';
  if (method.type === 'terminal') {
    const code = await runInTerminal(vscode.l10n.t('Sign in to {0}', agent.name), spec.command, [...spec.args, ...(method.args ?? [])], { ...spec.env, ...(method.env ?? {}) }, spec.cwd);
    if (code !== 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: signing in to {0} did not succeed (exit {1}).', agent.name, code ?? vscode.l10n.t('unknown')));
      return 'cancelled';
    }
    return 'restart';
  }
  if (takesKey(method)) {
    const key = answer.key ?? (await askForKey(agent.name, method.name));
    if (!key) return 'cancelled';
    await authenticate(authenticateParams(method, key));
    return 'authenticated';
  }
  await authenticate(authenticateParams(method));
  return 'authenticated';
}

/** A password box for the key; undefined when the user gives up. */
async function askForKey(agentName: string, methodName: string): Promise<string | undefined> {
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('Sign in to {0}', agentName),
    prompt: vscode.l10n.t('{0}: sent to the agent for this connection; Howdah does not store it.', methodName),
    password: true,
    ignoreFocusOut: true,
  });
  return key?.trim() || undefined;
}

/**
 * The sign-in question while one is open: shown in the panel (through `request`) and as a notification; the first
 * answer wins and a new question replaces an unanswered one.
 */
export class SignInPrompts {
  private pending: { request: SignInRequest; answer(choiceId: string | undefined, key?: string): void } | undefined;

  constructor(private readonly changed: () => void) {}

  get request(): SignInRequest | undefined {
    return this.pending?.request;
  }

  answer(choiceId: string | undefined, key?: string): void {
    this.pending?.answer(choiceId, key);
  }

  ask(request: SignInRequest): Promise<SignInAnswer | undefined> {
    this.pending?.answer(undefined);
    return new Promise((resolve) => {
      const pending = {
        request,
        answer: (choiceId: string | undefined, key?: string) => {
          if (this.pending !== pending) return;
          this.pending = undefined;
          this.changed();
          resolve(choiceId === undefined ? undefined : { choiceId, ...(key ? { key } : {}) });
        },
      };
      this.pending = pending;
      this.changed();
      const labels = request.choices.map((c) => c.label);
      void vscode.window.showWarningMessage(vscode.l10n.t('Sign in to {0}: {1}', request.agentName, request.message), ...labels).then((label) => {
        pending.answer(request.choices.find((c) => c.label === label)?.id);
      });
    });
  }
}
