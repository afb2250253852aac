import * as vscode from 'vscode';

/** Runs a program in a visible terminal and resolves to its exit code once the terminal closes. */
export function runInTerminal(name: string, shellPath: string, shellArgs: string[], env: Record<string, string>, cwd: string): Promise<number | undefined> {
  const terminal = vscode.window.createTerminal({ name, shellPath, shellArgs, env, cwd, isTransient: true });
  terminal.show();
  return new Promise((resolve) => {
    const listener = vscode.window.onDidCloseTerminal((closed) => {
      if (closed !== terminal) return;
      listener.dispose();
      resolve(closed.exitStatus?.code);
    });
  });
}
