import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Finds an agent's executable the way a user expects: on PATH, and where package managers put global commands even
 * when VS Code was started from a GUI and never saw the shell profile that adds them (nvm, fnm, volta, bun, npm's
 * prefix, Homebrew, ~/.local/bin). No `vscode` here: everything it reads is passed in, so it is unit-tested.
 */
export interface ResolutionEnv {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** Whether `file` exists and can be executed. */
  isExecutable(file: string): boolean;
  /** Entries of a directory, or [] when it cannot be read. */
  list(dir: string): string[];
}

export function systemResolutionEnv(): ResolutionEnv {
  return {
    platform: process.platform,
    env: process.env,
    home: os.homedir(),
    isExecutable: (file) => {
      try {
        const stat = fs.statSync(file);
        if (!stat.isFile()) return false;
        if (process.platform === 'win32') return true;
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    list: (dir) => {
      try {
        return fs.readdirSync(dir);
      } catch {
        return [];
      }
    },
  };
}

/** Folders beyond PATH where users' global commands usually live, newest Node versions first. */
export function usualBinDirs(r: ResolutionEnv): string[] {
  const h = (...parts: string[]) => path.join(r.home, ...parts);
  const newestFirst = (dir: string) => r.list(dir).sort(compareVersionsDesc).map((v) => path.join(dir, v));
  if (r.platform === 'win32') {
    const appData = r.env.APPDATA ?? h('AppData', 'Roaming');
    const local = r.env.LOCALAPPDATA ?? h('AppData', 'Local');
    return [
      path.join(appData, 'npm'),
      h('.volta', 'bin'),
      h('.bun', 'bin'),
      path.join(local, 'pnpm'),
      ...(r.env.NVM_SYMLINK ? [r.env.NVM_SYMLINK] : []),
      ...(r.env.NVM_HOME ? newestFirst(r.env.NVM_HOME) : []),
    ];
  }
  return [
    ...(r.env.npm_config_prefix ? [path.join(r.env.npm_config_prefix, 'bin')] : []),
    h('.npm-global', 'bin'),
    h('.local', 'bin'),
    h('.volta', 'bin'),
    h('.bun', 'bin'),
    ...(r.env.PNPM_HOME ? [r.env.PNPM_HOME] : [h('.local', 'share', 'pnpm')]),
    ...newestFirst(h('.nvm', 'versions', 'node')).map((d) => path.join(d, 'bin')),
    ...newestFirst(h('.local', 'share', 'fnm', 'node-versions')).map((d) => path.join(d, 'installation', 'bin')),
    ...newestFirst(h('.fnm', 'node-versions')).map((d) => path.join(d, 'installation', 'bin')),
    '/opt/homebrew/bin',
    '/usr/local/bin',
    h('.cargo', 'bin'),
  ];
}

function compareVersionsDesc(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Windows runs `.cmd`/`.exe` shims that npm writes; PATHEXT says which extensions count. */
function candidateNames(command: string, r: ResolutionEnv): string[] {
  if (r.platform !== 'win32' || path.extname(command)) return [command];
  const exts = (r.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  return exts.map((e) => command + e.toLowerCase());
}

export interface Resolved {
  readonly path: string;
  /** Where it was found: on PATH, in a usual folder, or on the login shell's PATH. */
  readonly via: 'absolute' | 'path' | 'usual' | 'login-shell';
}

/**
 * Resolves `command` to an executable. Absolute and relative-with-separator commands are taken as they are (when
 * they exist); bare names are searched on PATH, then in the usual folders, then on `loginShellPath` if given.
 */
export function resolveCommand(command: string, r: ResolutionEnv, loginShellPath?: string): Resolved | undefined {
  if (path.isAbsolute(command) || command.includes('/') || (r.platform === 'win32' && command.includes('\\'))) {
    for (const name of candidateNames(command, r)) if (r.isExecutable(name)) return { path: name, via: 'absolute' };
    return undefined;
  }
  const sep = r.platform === 'win32' ? ';' : ':';
  const search = (dirs: string[], via: Resolved['via']): Resolved | undefined => {
    for (const dir of dirs) {
      if (!dir) continue;
      for (const name of candidateNames(command, r)) {
        const file = path.join(dir, name);
        if (r.isExecutable(file)) return { path: file, via };
      }
    }
    return undefined;
  };
  const pathVar = r.env.PATH ?? r.env.Path ?? '';
  return (
    search(pathVar.split(sep), 'path') ??
    search(usualBinDirs(r), 'usual') ??
    (loginShellPath ? search(loginShellPath.split(sep), 'login-shell') : undefined)
  );
}

/**
 * The PATH an interactive login shell sets up (what a terminal would see), read once: VS Code started from a dock or
 * a desktop menu inherits a minimal PATH. Returns undefined on Windows, on failure or after the timeout.
 */
export async function readLoginShellPath(timeoutMs = 3000): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  const shell = process.env.SHELL || '/bin/sh';
  const { execFile } = await import('node:child_process');
  const marker = '__HOWDAH_PATH__';
  return new Promise((resolve) => {
    execFile(shell, ['-ilc', `printf '${marker}%s${marker}' "$PATH"`], { timeout: timeoutMs, env: process.env }, (error, stdout) => {
      const match = new RegExp(`${marker}(.*)${marker}`).exec(String(stdout));
      resolve(error && !match ? undefined : match?.[1]);
    });
  });
}
