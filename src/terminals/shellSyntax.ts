/**
 * A POSIX-shell reader, complete enough to see every command a command line would run: quotes and escapes, `$…`
 * expansions, `$( )` and backticks, `<( )`, subshells and brace groups, `;` `&` `&&` `||` `|` chains, redirections
 * with here-documents, `if`/`while`/`for`/`case` bodies and function definitions. It never throws and never runs
 * anything: what it cannot follow goes to `errors`, and callers treat an error as "cannot be sure". Pure.
 */

import { MAX_DEPTH, ParseError, WordReader, type Command, type Pipeline, type Redirect, type Script, type Word } from './shellWords';
import * as l10n from '@vscode/l10n';

export type { Command, FunctionDef, Pipeline, Redirect, Script, Word } from './shellWords';

const REDIRECT_OPS = ['&>>', '<<<', '<<-', '&>', '<<', '<>', '<&', '>&', '>>', '>|', '<', '>'];
const CONTROL_OPS = [';;&', ';;', ';&', '&&', '||', '|&', '|', '&', ';', '(', ')', '\n'];
/** Words that only shape control flow; the command that follows them is what runs. */
const PASS_THROUGH = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'fi', 'done', 'esac', 'time', 'coproc']);

/** Reads a command line. Never throws: a quote left open is reported in `errors`, with the commands before it. */
export function parseShell(source: string): Script {
  try {
    return parseStrict(source);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    // Read again with the open construct closed, so the commands before it are still seen.
    const script = salvage(source);
    script.errors.push(error.message);
    return script;
  }
}

function parseStrict(source: string): Script {
  const parser = new Parser(source);
  const script = parser.parseList(undefined);
  // Problems deep inside (nesting cut off) concern the whole line.
  for (const problem of parser.problems) if (!script.errors.includes(problem)) script.errors.push(problem);
  return script;
}

type Stop = ')' | '}' | 'case-item' | undefined;

class Parser extends WordReader {
  private readonly heredocs: { redirect: Redirect; delimiter: string; stripTabs: boolean; expand: boolean }[] = [];

  parseList(stop: Stop, into?: Script): Script {
    const script: Script = into ?? { pipelines: [], functions: [], errors: [] };
    if (++this.depth > MAX_DEPTH) {
      this.problems.push(l10n.t('nested too deeply'));
      this.pos = this.src.length;
      this.depth--;
      return script;
    }
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) {
        if (stop) script.errors.push(stop === 'case-item' ? l10n.t('missing esac') : l10n.t('missing {0}', stop));
        break;
      }
      if (stop === '}' && this.peekReservedWord('}')) break;
      if (stop === 'case-item' && this.peekReservedWord('esac')) break;
      const op = this.peekControl();
      if (op === ')') {
        this.pos++;
        if (stop === ')') break;
        script.errors.push('unexpected )');
        continue;
      }
      if (op === ';;' || op === ';&' || op === ';;&') {
        this.pos += op.length;
        if (stop === 'case-item') break;
        continue;
      }
      if (op === '\n') {
        this.newline();
        continue;
      }
      if (op && op !== '(') {
        this.pos += op.length;
        continue;
      }
      const before = this.pos;
      const pipeline = this.parsePipeline(script);
      if (pipeline) {
        script.pipelines.push(pipeline);
        this.skipBlanks();
        if (this.peekControl() === '&') {
          pipeline.background = true;
          this.pos++;
        }
      }
      // Something unreadable (a lone operator character): step over it rather than loop.
      if (this.pos === before) {
        script.errors.push(l10n.t('unexpected {0}', JSON.stringify(this.src[this.pos])));
        this.pos++;
      }
    }
    this.depth--;
    return script;
  }

  private parsePipeline(script: Script): Pipeline | undefined {
    const commands: Command[] = [];
    for (;;) {
      const command = this.parseCommand(script);
      if (command) commands.push(command);
      this.skipBlanks();
      const op = this.peekControl();
      if (op !== '|' && op !== '|&') break;
      this.pos += op.length;
      this.skipBlanksAndNewlines();
    }
    return commands.length ? { commands, background: false } : undefined;
  }

  private parseCommand(script: Script): Command | undefined {
    const command: Command = { assignments: [], words: [], redirects: [] };
    this.skipBlanks();
    if (this.peekControl() === '(') {
      this.pos++;
      command.group = this.parseList(')');
      this.readRedirects(command);
      return command;
    }
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) break;
      if (this.readRedirect(command)) continue;
      const op = this.peekControl();
      if (op === '(' && command.words.length === 1 && this.src.slice(this.pos + 1).trimStart().startsWith(')')) {
        // name() body: a function definition.
        this.pos = this.src.indexOf(')', this.pos) + 1;
        this.parseFunctionBody(command.words[0].text, script);
        return undefined;
      }
      if (op) break;
      const start = command.words.length === 0 && command.assignments.length === 0;
      if (start && this.peekReservedWord('{')) {
        this.readWord();
        command.group = this.parseList('}');
        this.readWord(); // the closing }
        this.readRedirects(command);
        return command;
      }
      const word = this.readWord();
      if (!word) break;
      if (start && !word.quoted) {
        if (PASS_THROUGH.has(word.text)) continue;
        if (word.text === 'for' || word.text === 'select') {
          this.skipToCommandEnd();
          return undefined;
        }
        if (word.text === 'case') {
          this.parseCase(script);
          return undefined;
        }
        if (word.text === 'function') {
          this.skipBlanks();
          const name = this.readWord();
          this.skipBlanks();
          if (this.src.startsWith('()', this.pos)) this.pos += 2;
          this.parseFunctionBody(name?.text ?? '', script);
          return undefined;
        }
      }
      if (command.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word.text) && !word.text.startsWith('=')) {
        command.assignments.push(word);
        continue;
      }
      command.words.push(word);
    }
    return command.words.length || command.assignments.length || command.redirects.length ? command : undefined;
  }

  private parseFunctionBody(name: string, script: Script): void {
    this.skipBlanksAndNewlines();
    const body: Script = { pipelines: [], functions: [], errors: [] };
    const command = this.parseCommand(body);
    if (command?.group) script.functions.push({ name, body: command.group });
    else if (command) {
      body.pipelines.push({ commands: [command], background: false });
      script.functions.push({ name, body });
    }
  }

  /** `case WORD in pattern) list ;; … esac`: the lists are what can run. */
  private parseCase(script: Script): void {
    this.readWord();
    this.skipBlanksAndNewlines();
    if (this.peekReservedWord('in')) this.readWord();
    for (;;) {
      this.skipBlanksAndNewlines();
      if (this.pos >= this.src.length) {
        script.errors.push(l10n.t('missing esac'));
        return;
      }
      if (this.peekReservedWord('esac')) {
        this.readWord();
        return;
      }
      if (this.peekControl() === '(') this.pos++;
      // The patterns, up to the `)` that ends them.
      while (this.pos < this.src.length && this.peekControl() !== ')') {
        if (!this.readWord()) this.pos++;
        this.skipBlanks();
      }
      this.pos++;
      this.parseList('case-item', script);
    }
  }

  private readRedirects(command: Command): void {
    for (;;) {
      this.skipBlanks();
      if (!this.readRedirect(command)) return;
    }
  }

  /** A redirection at the cursor (with an optional file-descriptor number before it). */
  private readRedirect(command: Command): boolean {
    const fd = /^[0-9]+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 12));
    const at = this.pos + (fd ? fd[0].length : 0);
    if (this.src.startsWith('<(', at) || this.src.startsWith('>(', at)) return false;
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, at));
    if (!op) return false;
    this.pos = at + op.length;
    this.skipBlanks();
    const target = this.readWord();
    const redirect: Redirect = { op, target };
    if (op === '<<' || op === '<<-') {
      this.heredocs.push({ redirect, delimiter: target?.text ?? '', stripTabs: op === '<<-', expand: !target?.quoted });
    } else if (op === '<<<') {
      redirect.body = target?.text;
    }
    command.redirects.push(redirect);
    return true;
  }

  /** A newline: here-documents waiting for it take the lines that follow, up to their delimiter. */
  private newline(): void {
    this.pos++;
    while (this.heredocs.length) {
      const doc = this.heredocs.shift()!;
      const lines: string[] = [];
      for (;;) {
        if (this.pos >= this.src.length) break;
        const end = this.src.indexOf('\n', this.pos);
        const raw = this.src.slice(this.pos, end < 0 ? this.src.length : end);
        this.pos = end < 0 ? this.src.length : end + 1;
        const line = doc.stripTabs ? raw.replace(/^\t+/, '') : raw;
        if (line === doc.delimiter) break;
        lines.push(line);
      }
      doc.redirect.body = lines.join('\n');
      // An unquoted delimiter lets `$( )` in the body run.
      if (doc.expand && doc.redirect.target) {
        const inner = new Parser(doc.redirect.body);
        inner.problems = this.problems;
        inner.depth = this.depth;
        doc.redirect.target.subs.push(...inner.readHeredocBody().subs);
      }
    }
  }

  private skipToCommandEnd(): void {
    while (this.pos < this.src.length) {
      this.skipBlanks();
      const op = this.peekControl();
      if (op && op !== '(' && op !== ')') return;
      if (op) this.pos++;
      else if (!this.readWord()) this.pos++;
    }
  }

  private peekControl(): string | undefined {
    return CONTROL_OPS.find((o) => this.src.startsWith(o, this.pos));
  }

  private skipBlanksAndNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] !== '\n') return;
      this.newline();
    }
  }

  /** A here-document body with an unquoted delimiter: its `$( )` and backquotes run. */
  readHeredocBody(): Word {
    return this.readDoubleQuoted(true);
  }

  protected parseSubstitution(): Script {
    return this.parseList(')');
  }

  protected parseNested(text: string): Script {
    const nested = new Parser(text);
    nested.problems = this.problems;
    nested.depth = this.depth + 1;
    return nested.parseList(undefined);
  }
}

/** The commands of the longest readable prefix, found by closing the open quote. */
function salvage(source: string): Script {
  for (const closer of ["'", '"', '`', ')', '}', "'\"", '"\'']) {
    try {
      return parseStrict(source + closer);
    } catch {
      // try the next
    }
  }
  return { pipelines: [], functions: [], errors: [] };
}

/** Every command in the script, at any depth: pipelines, groups, substitutions, function bodies. */
export function* allCommands(script: Script): Generator<Command> {
  for (const pipeline of script.pipelines) {
    for (const command of pipeline.commands) {
      yield command;
      if (command.group) yield* allCommands(command.group);
      for (const word of [...command.assignments, ...command.words, ...command.redirects.flatMap((r) => (r.target ? [r.target] : []))]) {
        for (const sub of word.subs) yield* allCommands(sub);
      }
    }
  }
  for (const fn of script.functions) yield* allCommands(fn.body);
}

/**
 * True when running the line needs a shell: anything but one plain command of literal words (quotes are fine; they
 * are removed here as the shell would).
 */
export function needsShell(script: Script): boolean {
  if (script.errors.length || script.functions.length || script.pipelines.length !== 1) return true;
  const [pipeline] = script.pipelines;
  if (pipeline.background || pipeline.commands.length !== 1) return true;
  const [command] = pipeline.commands;
  if (command.group || command.assignments.length || command.redirects.length || command.words.length === 0) return true;
  return command.words.some((w) => w.dynamic || w.glob || w.tilde || w.subs.length > 0);
}
