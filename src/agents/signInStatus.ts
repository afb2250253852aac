import { execFile } from 'node:child_process';

/**
 * Whether an agent is signed in, from its own CLI (`claude auth status`, `codex login status`, `opencode auth list`,
 * `cursor-agent status`; see the catalog), asked before it is started. The commands differ in how they say it, so
 * both the words and the exit code count: words saying "not signed in" win, else exit 0 means signed in. No `vscode`.
 */
export type SignInState = 'signed-in' | 'signed-out' | 'unknown';

const SIGNED_OUT = /not (logged|signed) in|no credentials|\b0 credentials|unauthenticated|"loggedIn"\s*:\s*false|login required|please (log|sign) in/i;

export function readSignInState(exitCode: number | null, output: string): SignInState {
  if (SIGNED_OUT.test(output)) return 'signed-out';
  return exitCode === 0 ? 'signed-in' : 'signed-out';
}

/** Runs the status command (resolved by the caller) with the agent's environment; unknown when it cannot run or hangs. */
export function checkSignIn(command: string, args: readonly string[], env: Readonly<Record<string, string>>, cwd: string, timeoutMs = 15_000): Promise<SignInState> {
  return new Promise((resolve) => {
    execFile(command, [...args], { env: { ...process.env, ...env }, cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20, windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
      // Not started, or killed by the timeout: nothing is known.
      if (error && code === null) return resolve('unknown');
      resolve(readSignInState(code, `${stdout}\n${stderr}`));
    });
  });
}
