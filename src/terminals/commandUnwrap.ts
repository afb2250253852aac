import { parseShell, type Command, type Redirect, type Script, type Word } from './shellSyntax';
import * as l10n from '@vscode/l10n';

/**
 * What a command line really runs: each command seen through the programs that only wrap another one (`sudo`, `env`,
 * `nice`, `timeout`, `xargs`, `find -exec`, …) and through the ones that run a script given as a string (`bash -c`,
 * `eval`, `su -c`, `watch`), which is read again as a command line. Pure.
 */

export interface EffectiveCommand {
  /** The program's name without its directory (`/bin/rm` → `rm`). */
  program: string;
  args: Word[];
  redirects: Redirect[];
  /** Runs with another user's rights (`sudo`, `doas`, `su`, `pkexec`, `run0`). */
  elevated: boolean;
  /** The program, or a script given as a string, is only known at run time (`$CMD`, `bash -c "$X"`, `eval "$Y"`). */
  opaque: boolean;
  /** More arguments are added at run time (`xargs`, `find -exec … {}`). */
  openArgs: boolean;
  /** A shell or interpreter that reads its program from standard input (`… | sh`, `python3 -`). */
  readsScriptFromStdin: boolean;
  /** The wrappers it was found in, outermost first (`sudo`, `bash -c`). */
  via: string[];
}

export interface Analysis {
  /** Every command that may run, at any depth. */
  commands: EffectiveCommand[];
  /** Each pipeline as its elements' main commands, to see what feeds what. */
  pipelines: EffectiveCommand[][];
  /** Commands that run a script whose text comes from a substitution (`bash <(curl …)`, `sh -c "$(wget …)"`). */
  substitutedScripts: { command: EffectiveCommand; sources: EffectiveCommand[] }[];
  functions: { name: string; body: Analysis }[];
  errors: string[];
}

const MAX_NESTING = 8;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'csh', 'tcsh', 'rbash', 'pwsh', 'powershell']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'php', 'lua', 'deno', 'bun']);
const ELEVATORS = new Set(['sudo', 'doas', 'pkexec', 'run0']);
/** Builtins that run the text of their arguments (`eval`) or of a file (`source`, `.`). */
const RUNS_SCRIPT_ARGUMENTS = new Set(['eval', 'source', '.']);

function isInterpreter(program: string): boolean {
  return INTERPRETERS.has(program) || INTERPRETERS.has(program.replace(/[0-9.]+$/, ''));
}

export function analyzeCommandLine(line: string): Analysis {
  return analyzeScript(parseShell(line), 0);
}

/** Analysis of a command given as argv (no shell reads it, but `bash -c …` in it still does). */
export function analyzeArgv(argv: readonly string[]): Analysis {
  const words = argv.map(literalWord);
  return analyzeScript({ pipelines: [{ commands: [{ assignments: [], words, redirects: [] }], background: false }], functions: [], errors: [] }, 0);
}

export function literalWord(text: string): Word {
  return { text, dynamic: false, glob: false, tilde: false, quoted: true, subs: [] };
}

function analyzeScript(script: Script, nesting: number): Analysis {
  const analysis: Analysis = { commands: [], pipelines: [], substitutedScripts: [], functions: [], errors: [...script.errors] };
  for (const pipeline of script.pipelines) {
    const mains: EffectiveCommand[] = [];
    for (const command of pipeline.commands) {
      const found = analyzeCommand(command, nesting, analysis);
      if (found) mains.push(found);
    }
    if (mains.length) analysis.pipelines.push(mains);
    for (let i = 1; i < mains.length; i++) {
      const text = mains[i].readsScriptFromStdin ? literalOutput(mains[i - 1]) : undefined;
      if (text === undefined || nesting >= MAX_NESTING) continue;
      // `echo 'rm -rf ~' | sh`, `cat <<EOF | bash`: the script that is fed in can be read too.
      const fed = analyzeScript(parseShell(text), nesting + 1);
      for (const c of fed.commands) c.via = [...mains[i].via, `| ${mains[i].program}`, ...c.via];
      merge(analysis, fed);
    }
  }
  for (const fn of script.functions) analysis.functions.push({ name: fn.name, body: analyzeScript(fn.body, nesting + 1) });
  return analysis;
}

/** Adds what `command` runs to `into`; returns its main command (the one a pipeline feeds). */
function analyzeCommand(command: Command, nesting: number, into: Analysis): EffectiveCommand | undefined {
  for (const word of [...command.assignments, ...command.words, ...command.redirects.flatMap((r) => (r.target ? [r.target] : []))]) {
    for (const sub of word.subs) merge(into, analyzeScript(sub, nesting + 1));
  }
  if (command.group) {
    const inner = analyzeScript(command.group, nesting + 1);
    merge(into, inner);
    // A group in a pipeline: its last pipeline's last command stands for it.
    const last = inner.pipelines.at(-1)?.at(-1);
    return last ? { ...last, redirects: [...last.redirects, ...command.redirects] } : undefined;
  }
  if (command.words.length === 0) return undefined;
  return unwrap(command.words, command.redirects, { elevated: false, via: [] }, nesting, into);
}

/** What `echo`, `printf` or `cat` with a here-document writes, when it is written out in the line. */
function literalOutput(command: EffectiveCommand): string | undefined {
  if (command.program === 'echo' || command.program === 'printf') {
    const args = command.args.filter((w, i) => !(command.program === 'echo' && i === 0 && /^-[neE]+$/.test(w.text)));
    return args.map((w) => w.text).join(' ').replace(/\\n/g, '\n');
  }
  if (command.program === 'cat' && command.args.length === 0) return command.redirects.find((r) => r.body !== undefined)?.body;
  return undefined;
}

function merge(into: Analysis, from: Analysis): void {
  into.commands.push(...from.commands);
  into.pipelines.push(...from.pipelines);
  into.substitutedScripts.push(...from.substitutedScripts);
  into.functions.push(...from.functions);
  into.errors.push(...from.errors);
}

interface Context {
  elevated: boolean;
  via: string[];
}

function unwrap(words: Word[], redirects: Redirect[], ctx: Context, nesting: number, into: Analysis): EffectiveCommand | undefined {
  if (words.length === 0) return undefined;
  const [head, ...rest] = words;
  const program = basename(head.text);
  const command: EffectiveCommand = {
    program,
    args: rest,
    redirects,
    elevated: ctx.elevated,
    opaque: head.dynamic || head.glob,
    openArgs: false,
    readsScriptFromStdin: false,
    via: ctx.via,
  };
  into.commands.push(command);
  if (command.opaque) return command;
  if (nesting > MAX_NESTING) {
    command.opaque = true;
    into.errors.push(l10n.t('commands nested too deeply'));
    return command;
  }
  const inner = (from: number, changes: Partial<Context> = {}): EffectiveCommand | undefined =>
    unwrap(rest.slice(from), redirects, { elevated: ctx.elevated || !!changes.elevated, via: [...ctx.via, program] }, nesting + 1, into);
  const script = (text: Word, label: string, elevated = false): void => {
    // Expansions in the text are only known at run time, but the shape of the script is there to read
    // (`bash -c "rm -rf $HOME"`): read it, and say it is not fully known.
    if (text.dynamic) command.opaque = true;
    const nested = analyzeScript(parseShell(text.text), nesting + 1);
    for (const c of nested.commands) {
      c.via = [...ctx.via, label, ...c.via];
      c.elevated ||= ctx.elevated || elevated;
    }
    merge(into, nested);
  };

  if (RUNS_SCRIPT_ARGUMENTS.has(program) || SHELLS.has(program) || isInterpreter(program)) {
    const sources = rest.flatMap((w) => w.subs.flatMap((sub) => analyzeScript(sub, nesting + 1).commands));
    if (sources.length) into.substitutedScripts.push({ command, sources });
  }
  if (ELEVATORS.has(program)) return inner(skipOptions(rest, program === 'sudo' ? SUDO_VALUE_OPTS : DOAS_VALUE_OPTS), { elevated: true });
  if (program === 'su') {
    const c = rest.findIndex((w) => w.text === '-c' || w.text === '--command');
    if (c >= 0 && rest[c + 1]) script(rest[c + 1], 'su -c', true);
    else if (rest.some((w) => w.text.startsWith('--command='))) script(literalWord(rest.find((w) => w.text.startsWith('--command='))!.text.slice(10)), 'su -c', true);
    return command;
  }
  if (program === 'env') return unwrapEnv(rest, inner, script);
  if (program === 'xargs') {
    const found = inner(skipOptions(rest, XARGS_VALUE_OPTS));
    if (found) found.openArgs = true;
    return command;
  }
  if (program === 'find') {
    unwrapFindExec(rest, redirects, ctx, nesting, into);
    return command;
  }
  if (program === 'watch') {
    const from = skipOptions(rest, WATCH_VALUE_OPTS);
    if (from < rest.length) script(literalWord(rest.slice(from).map((w) => w.text).join(' ')), 'watch');
    return command;
  }
  if (program === 'eval') {
    if (rest.some((w) => w.dynamic)) command.opaque = true;
    else script(literalWord(rest.map((w) => w.text).join(' ')), 'eval');
    return command;
  }
  if (program === 'timeout') {
    const from = skipOptions(rest, TIMEOUT_VALUE_OPTS);
    return inner(from + 1); // the duration, then the command
  }
  const wrapper = SIMPLE_WRAPPERS[program];
  if (wrapper) {
    // `command -v x` and `command -V x` only look x up.
    if (program === 'command' && rest.some((w) => w.text === '-v' || w.text === '-V')) return command;
    return inner(skipOptions(rest, wrapper) + (POSITIONAL_BEFORE_COMMAND[program] ?? 0));
  }
  if (SHELLS.has(program) || (program === 'busybox' && rest[0] && SHELLS.has(rest[0].text))) {
    unwrapShell(program === 'busybox' ? rest.slice(1) : rest, command, script);
    // `bash <<EOF … EOF`, `sh <<< "…"`: the script is right there.
    const body = command.readsScriptFromStdin ? redirects.find((r) => r.body !== undefined)?.body : undefined;
    if (body !== undefined) script(literalWord(body), `${program} <<`);
    return command;
  }
  if (program === 'ssh') {
    // The rest of the line runs in a shell on the remote machine: still the user's machine to lose.
    const host = skipOptions(rest, SSH_VALUE_OPTS);
    if (host + 1 < rest.length) script(literalWord(rest.slice(host + 1).map((w) => w.text).join(' ')), 'ssh');
    return command;
  }
  if (isInterpreter(program)) {
    command.readsScriptFromStdin = rest.length === 0 || rest.some((w) => w.text === '-');
  }
  return command;
}

/** `sh -c 'script'` reads the script; `sh file` runs a file; a bare `sh` (or `sh -s`) reads standard input. */
function unwrapShell(args: Word[], command: EffectiveCommand, script: (text: Word, label: string) => void): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i].text;
    if (arg === '--') break;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg) || arg === '-Command' || arg === '-command' || arg === '/c') {
      const source = args.slice(i + 1).find((w) => !w.text.startsWith('-') || w.text === '-');
      if (source) script(source, `${command.program} -c`);
      return;
    }
    if (arg === '-o' || arg === '+o' || arg === '--rcfile' || arg === '--init-file') i++;
    else if (!arg.startsWith('-') && !arg.startsWith('+')) return; // a script file: its text is not ours to see
    else if (/^-[A-Za-z]*s[A-Za-z]*$/.test(arg)) command.readsScriptFromStdin = true;
  }
  command.readsScriptFromStdin = true;
}

function unwrapEnv(
  rest: Word[],
  inner: (from: number) => EffectiveCommand | undefined,
  script: (text: Word, label: string) => void,
): EffectiveCommand | undefined {
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i].text;
    if (arg === '--') return inner(i + 1);
    if (arg === '-S' || arg === '--split-string') {
      script(literalWord(rest.slice(i + 1).map((w) => w.text).join(' ')), 'env -S');
      return undefined;
    }
    if (arg.startsWith('--split-string=')) {
      script(literalWord([arg.slice(15), ...rest.slice(i + 1).map((w) => w.text)].join(' ')), 'env -S');
      return undefined;
    }
    if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir' || arg === '-P') i++;
    else if (arg.startsWith('-') || /^[^=]+=/.test(arg)) continue;
    else return inner(i);
  }
  return undefined;
}

/** `find … -exec cmd args {} ;` runs cmd once per file (or once with many, `+`). */
function unwrapFindExec(args: Word[], redirects: Redirect[], ctx: Context, nesting: number, into: Analysis): void {
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i].text)) continue;
    let end = i + 1;
    while (end < args.length && args[end].text !== ';' && args[end].text !== '+') end++;
    const found = unwrap(args.slice(i + 1, end), redirects, { elevated: ctx.elevated, via: [...ctx.via, 'find'] }, nesting + 1, into);
    if (found) found.openArgs = true;
    i = end;
  }
}

/** Index of the first argument that is not an option of the wrapper (options listed in `valued` take a value). */
function skipOptions(args: Word[], valued: ReadonlySet<string>): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i].text;
    if (arg === '--') return i + 1;
    if (!arg.startsWith('-') || arg === '-') return i;
    if (valued.has(arg)) i++;
  }
  return args.length;
}

const SUDO_VALUE_OPTS = new Set(['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user', '-R', '--chroot']);
const DOAS_VALUE_OPTS = new Set(['-u', '-C']);
const XARGS_VALUE_OPTS = new Set(['-I', '-n', '-P', '-d', '-L', '-s', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines', '--max-chars', '--eof', '--replace']);
const WATCH_VALUE_OPTS = new Set(['-n', '--interval', '-d', '-q', '--equexit', '-g']);
const TIMEOUT_VALUE_OPTS = new Set(['-k', '--kill-after', '-s', '--signal']);
const SSH_VALUE_OPTS = new Set(['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-E', '-B', '-I']);
const NONE = new Set<string>();

/** Programs that run the rest of their arguments as a command, with the options that take a value. */
const SIMPLE_WRAPPERS: Record<string, ReadonlySet<string>> = {
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '--class', '-n', '--classdata']),
  nohup: NONE,
  time: new Set(['-o', '--output', '-f', '--format']),
  stdbuf: new Set(['-i', '-o', '-e']),
  setsid: NONE,
  unbuffer: NONE,
  chronic: NONE,
  caffeinate: new Set(['-t', '-w']),
  command: NONE,
  builtin: NONE,
  exec: new Set(['-a']),
  nocorrect: NONE,
  noglob: NONE,
  flock: new Set(['-w', '--timeout', '-E', '--conflict-exit-code']),
  chrt: NONE,
  taskset: NONE,
  'systemd-run': new Set(['-u', '--unit', '-p', '--property', '--slice', '-E', '--setenv', '--working-directory']),
  firejail: NONE,
  proxychains: NONE,
  proxychains4: NONE,
  torsocks: NONE,
  // Package runners: `npx vsce publish` runs vsce.
  npx: new Set(['-p', '--package']),
  pnpx: new Set(['-p', '--package']),
  bunx: new Set(['-p', '--package']),
};

/** Positional arguments between the options and the command (`flock FILE cmd`, `chrt PRIO cmd`, `taskset MASK cmd`). */
const POSITIONAL_BEFORE_COMMAND: Record<string, number> = { flock: 1, chrt: 1, taskset: 1 };

export function basename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  const name = slash >= 0 ? trimmed.slice(slash + 1) : trimmed;
  // Windows: `rm.exe`, `git.EXE`.
  return name.replace(/\.(exe|cmd|bat|com)$/i, '');
}
