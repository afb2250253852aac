import * as fs from 'node:fs';
import * as path from 'node:path';
import { needsShell, parseShell } from './shellSyntax';

/**
 * How a `terminal/create` is started. `command` plus `args` is an argv and runs without a shell. A `command` alone is
 * a command line: if it is one plain command (quotes allowed) it is split as the shell would and still runs without
 * one; if it needs a shell (pipes, `&&`, redirections, globs, `$VAR`, `~`) it runs through the user's shell with `-c`.
 * Pure apart from looking at the file system for the shell and for a command that is a path with spaces.
 */

export interface LaunchPlan {
  file: string;
  args: string[];
  viaShell: boolean;
  /** Windows `cmd.exe /c` needs its command line passed as is. */
  verbatim?: boolean;
  /**
   * Windows: what to try when the program cannot be started directly (`npm` is `npm.cmd`, which Node runs only
   * through cmd.exe).
   */
  fallback?: LaunchPlan;
}

export interface LaunchOptions {
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a path names an existing file (injected by tests). */
  isFile?: (p: string) => boolean;
}

/**
 * Shells that read the POSIX syntax agents write (`&&`, `$( )`, `2>&1`, `export X=1`). Another login shell (fish,
 * nushell, csh) would misread those lines, so `/bin/sh` runs them instead.
 */
const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);

export function planLaunch(command: string, args: readonly string[] | undefined, options: LaunchOptions): LaunchPlan {
  const plan = planDirect(command, args, options);
  if ((options.platform ?? process.platform) === 'win32' && !plan.viaShell) {
    const line = [plan.file, ...plan.args].map(quoteForCmd).join(' ');
    plan.fallback = { file: comspec(options.env), args: ['/d', '/s', '/c', `"${line}"`], viaShell: true, verbatim: true };
  }
  return plan;
}

function planDirect(command: string, args: readonly string[] | undefined, options: LaunchOptions): LaunchPlan {
  const platform = options.platform ?? process.platform;
  const isFile = options.isFile ?? defaultIsFile;
  if (args && args.length > 0) return { file: command, args: [...args], viaShell: false };
  if (!/[\s'"\\$`|&;<>()*?[\]{}~#!=%^]/.test(command)) return { file: command, args: [], viaShell: false };
  // A program whose path has spaces, given without arguments.
  if (path.isAbsolute(command) && isFile(command)) return { file: command, args: [], viaShell: false };
  const script = parseShell(command);
  if (!needsShell(script)) {
    const words = script.pipelines[0].commands[0].words.map((w) => w.text);
    return { file: words[0], args: words.slice(1), viaShell: false };
  }
  if (platform === 'win32') return { file: comspec(options.env), args: ['/d', '/s', '/c', `"${command}"`], viaShell: true, verbatim: true };
  return { file: userShell(options.env, isFile), args: ['-c', command], viaShell: true };
}

function comspec(env: NodeJS.ProcessEnv): string {
  return env.ComSpec || env.COMSPEC || 'cmd.exe';
}

/** An argument for a cmd.exe line: quoted when it holds spaces or cmd's special characters. */
function quoteForCmd(arg: string): string {
  return arg !== '' && !/[\s"&|<>^%()]/.test(arg) ? arg : `"${arg.replace(/"/g, '""')}"`;
}

/** `$SHELL` when it is a POSIX shell that exists, else `/bin/sh`. */
export function userShell(env: NodeJS.ProcessEnv, isFile: (p: string) => boolean = defaultIsFile): string {
  const shell = env.SHELL;
  if (shell && path.isAbsolute(shell) && POSIX_SHELLS.has(path.basename(shell)) && isFile(shell)) return shell;
  return '/bin/sh';
}

function defaultIsFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The command as one line a shell would read back to the same argv: arguments quoted only where needed. */
export function formatCommandLine(command: string, args: readonly string[] | undefined): string {
  if (!args || args.length === 0) return command;
  return [command, ...args].map(quoteArgument).join(' ');
}

export function quoteArgument(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A short title for a terminal: the command line, cut at `max` characters. */
export function terminalTitle(commandLine: string, max = 48): string {
  const line = commandLine.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line || 'command';
}
