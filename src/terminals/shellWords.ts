import * as l10n from '@vscode/l10n';
/**
 * The word level of the shell reader (`shellSyntax.ts` is the grammar): blanks and comments, quotes and escapes,
 * `$…` expansions, `$( )`, backticks and `<( )`, whose commands the grammar reads. Pure.
 */

export interface Word {
  /** The word after quote removal; expansions stay as written (`$HOME`, `$(date)`). */
  text: string;
  /** Holds an expansion or substitution, so its value is only known when it runs. */
  dynamic: boolean;
  /** Unquoted `*`, `?`, `[`, or `{`: the shell would expand it to file names. */
  glob: boolean;
  /** Starts with an unquoted `~`. */
  tilde: boolean;
  /** Any part was quoted or escaped (so it is not a reserved word). */
  quoted: boolean;
  /** The commands of its `$( )`, backticks and `<( )`. */
  subs: Script[];
}

export interface Redirect {
  op: string;
  target?: Word;
  /** A here-document's body, or a here-string's word. */
  body?: string;
}

export interface Command {
  /** `NAME=value` words before the command. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  /** A subshell `( … )` or group `{ …; }` in this place of a pipeline. */
  group?: Script;
}

export interface Pipeline {
  commands: Command[];
  /** Followed by `&`. */
  background: boolean;
}

export interface FunctionDef {
  name: string;
  body: Script;
}

export interface Script {
  /** Every pipeline, also those inside `if`/`while`/`for`/`case` bodies (flattened: only what runs matters here). */
  pipelines: Pipeline[];
  functions: FunctionDef[];
  errors: string[];
}

export class ParseError extends Error {}

export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
export const MAX_DEPTH = 40;

export abstract class WordReader {
  protected pos = 0;
  protected depth = 0;
  /** Problems anywhere in the line, shared with the readers of nested texts. */
  problems: string[] = [];

  constructor(protected readonly src: string) {}

  /** The commands of a substitution whose `$(` or `<(` was just read, up to its `)`. */
  protected abstract parseSubstitution(): Script;
  /** The commands of a text read on its own (the inside of backquotes). */
  protected abstract parseNested(text: string): Script;

  protected peekReservedWord(text: string): boolean {
    if (!this.src.startsWith(text, this.pos)) return false;
    const next = this.src[this.pos + text.length];
    return next === undefined || WORD_END.has(next);
  }

  protected skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        const end = this.src.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.src.length : end;
      } else return;
    }
  }

  /** One word at the cursor, or undefined at an operator or the end. */
  protected readWord(): Word | undefined {
    const word: Word = { text: '', dynamic: false, glob: false, tilde: false, quoted: false, subs: [] };
    const start = this.pos;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if ((c === '<' || c === '>') && this.src[this.pos + 1] === '(') {
        // Process substitution: a file name that is the output (or input) of a command.
        this.pos += 2;
        word.subs.push(this.parseSubstitution());
        word.text += `${c}(…)`;
        word.dynamic = true;
        continue;
      }
      if (WORD_END.has(c)) break;
      this.pos++;
      if (c === '\\') {
        if (this.src[this.pos] === '\n') this.pos++;
        else if (this.pos < this.src.length) {
          word.text += this.src[this.pos++];
          word.quoted = true;
        }
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos);
        if (end < 0) throw new ParseError(l10n.t('unterminated single quote'));
        word.text += this.src.slice(this.pos, end);
        word.quoted = true;
        this.pos = end + 1;
      } else if (c === '"') {
        const inner = this.readDoubleQuoted(false);
        word.text += inner.text;
        word.dynamic ||= inner.dynamic;
        word.subs.push(...inner.subs);
        word.quoted = true;
      } else if (c === '$') {
        this.readDollar(word, false);
      } else if (c === '`') {
        this.readBackticks(word);
      } else {
        if (c === '*' || c === '?' || c === '[' || c === '{') word.glob = true;
        if (c === '~' && this.pos - 1 === start) word.tilde = true;
        word.text += c;
      }
    }
    return this.pos > start ? word : undefined;
  }

  /** After an opening `"` (or a whole here-document body when `toEnd`): text with its expansions. */
  protected readDoubleQuoted(toEnd: boolean): Word {
    const word: Word = { text: '', dynamic: false, glob: false, tilde: false, quoted: true, subs: [] };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos++];
      if (c === '"' && !toEnd) return word;
      if (c === '\\' && !toEnd) {
        const next = this.src[this.pos];
        if (next === '\n') this.pos++;
        else if (next === '$' || next === '`' || next === '"' || next === '\\') word.text += this.src[this.pos++];
        else word.text += c;
      } else if (c === '$') this.readDollar(word, true);
      else if (c === '`') this.readBackticks(word);
      else word.text += c;
    }
    if (!toEnd) throw new ParseError(l10n.t('unterminated double quote'));
    return word;
  }

  /** After a `$`: a parameter, `${…}`, `$(…)`, `$((…))`, `$'…'`, or a plain dollar sign. */
  protected readDollar(word: Word, inQuotes: boolean): void {
    const c = this.src[this.pos];
    const from = this.pos - 1;
    if (c === "'" && !inQuotes) {
      this.pos++;
      word.text += this.readAnsiC();
      word.quoted = true;
      return;
    }
    if (c === '(' && this.src[this.pos + 1] === '(') {
      this.pos = this.matching(this.pos + 2, '(', ')', 2);
      word.text += this.src.slice(from, this.pos);
      word.dynamic = true;
      return;
    }
    if (c === '(') {
      this.pos++;
      word.subs.push(this.parseSubstitution());
      word.text += this.src.slice(from, this.pos);
      word.dynamic = true;
      return;
    }
    if (c === '{') {
      this.pos = this.matching(this.pos + 1, '{', '}', 1);
      word.text += this.src.slice(from, this.pos);
      word.dynamic = true;
      return;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.pos, this.pos + 256));
    if (name) {
      this.pos += name[0].length;
      word.text += `$${name[0]}`;
      word.dynamic = true;
      return;
    }
    word.text += '$';
  }

  /** The position after the bracket that closes one opened before `from` (`count` closers in a row for `))`). */
  protected matching(from: number, open: string, close: string, count: number): number {
    let depth = 1;
    for (let i = from; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') i++;
      else if (c === "'" && open === '{') {
        const end = this.src.indexOf("'", i + 1);
        if (end < 0) break;
        i = end;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        return count === 2 && this.src[i + 1] === close ? i + 2 : i + 1;
      }
    }
    throw new ParseError(l10n.t('unterminated {0}', open === '{' ? '${' : '$(('));
  }

  protected readBackticks(word: Word): void {
    let inner = '';
    for (;;) {
      if (this.pos >= this.src.length) throw new ParseError(l10n.t('unterminated backquote'));
      const c = this.src[this.pos++];
      if (c === '`') break;
      if (c === '\\' && (this.src[this.pos] === '`' || this.src[this.pos] === '\\' || this.src[this.pos] === '$')) inner += this.src[this.pos++];
      else inner += c;
    }
    if (this.depth + 1 > MAX_DEPTH) this.problems.push(l10n.t('nested too deeply'));
    else word.subs.push(this.parseNested(inner));
    word.text += `\`${inner}\``;
    word.dynamic = true;
  }

  /** `$'…'`: backslash escapes as in C. */
  protected readAnsiC(): string {
    let out = '';
    for (;;) {
      if (this.pos >= this.src.length) throw new ParseError('unterminated $\' quote');
      const c = this.src[this.pos++];
      if (c === "'") return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.src[this.pos++];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
      if (e in simple) out += simple[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const digits = /^[0-9a-fA-F]+/.exec(this.src.slice(this.pos, this.pos + (e === 'x' ? 2 : e === 'u' ? 4 : 8)));
        if (digits) {
          this.pos += digits[0].length;
          out += String.fromCodePoint(Math.min(parseInt(digits[0], 16), 0x10ffff));
        } else out += `\\${e}`;
      } else if (e >= '0' && e <= '7') {
        const digits = /^[0-7]{1,3}/.exec(this.src.slice(this.pos - 1, this.pos + 2))!;
        this.pos += digits[0].length - 1;
        out += String.fromCharCode(parseInt(digits[0], 8) & 0xff);
      } else out += `\\${e ?? ''}`;
    }
  }
}
