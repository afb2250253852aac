/**
 * Terminal control sequences, for the two places command output goes: the panel shows plain text (sequences removed,
 * carriage returns and backspaces applied as a terminal would), while a VS Code terminal gets the bytes with their
 * colours, only with bare line feeds turned into CR LF (a pipe has no tty to do that). Pure: no `vscode`, no DOM, no
 * Node. In src/shared because the webview strips sequences with it too (`stripAnsi`, through textSafety.ts).
 */

const ESC = 0x1b;
const BEL = 0x07;

/** What the scanner is inside of; a sequence may be cut between two chunks of a stream. */
enum Mode {
  Text,
  /** After ESC. */
  Escape,
  /** After ESC and intermediate bytes (0x20–0x2f), waiting for the final byte. */
  EscapeIntermediate,
  /** After ESC [ (or the 8-bit CSI): parameters, intermediates, then a final byte 0x40–0x7e. */
  Csi,
  /** After ESC ] (OSC) or ESC P / X / ^ / _ (DCS, SOS, PM, APC): a string up to BEL or ST. */
  String,
  /** Inside a string, just after an ESC: `\` ends it (ST). */
  StringEscape,
}

/**
 * Removes control sequences from a stream of text, chunk by chunk: a sequence split across two chunks is still
 * recognised. Keeps tab, line feed, carriage return and backspace (the caller decides what they mean); drops every
 * other C0 and C1 control.
 */
export class AnsiStripper {
  private mode = Mode.Text;

  push(chunk: string): string {
    let out = '';
    let runStart = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.mode === Mode.Text) {
        if (isKept(c)) {
          if (runStart < 0) runStart = i;
          continue;
        }
        if (runStart >= 0) {
          out += chunk.slice(runStart, i);
          runStart = -1;
        }
        if (c === ESC) this.mode = Mode.Escape;
        else if (c === 0x9b) this.mode = Mode.Csi;
        else if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) this.mode = Mode.String;
        // Any other control character is dropped.
        continue;
      }
      this.step(c);
    }
    if (runStart >= 0) out += chunk.slice(runStart);
    return out;
  }

  /** Forgets a sequence left open at the end of the stream. */
  reset(): void {
    this.mode = Mode.Text;
  }

  private step(c: number): void {
    switch (this.mode) {
      case Mode.Escape:
        if (c === 0x5b) this.mode = Mode.Csi; // [
        else if (c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) this.mode = Mode.String; // ] P X ^ _
        else if (c >= 0x20 && c <= 0x2f) this.mode = Mode.EscapeIntermediate;
        else this.mode = Mode.Text; // a two-byte escape (ESC 7, ESC c, ESC =, …) or a stray ESC: either way it is gone
        return;
      case Mode.EscapeIntermediate:
        if (c < 0x20 || c > 0x2f) this.mode = Mode.Text;
        return;
      case Mode.Csi:
        // Parameters 0x30–0x3f and intermediates 0x20–0x2f continue; anything else ends it (a final byte, or garbage).
        if (c < 0x20 || c > 0x3f) this.mode = Mode.Text;
        return;
      case Mode.String:
        if (c === BEL || c === 0x9c) this.mode = Mode.Text;
        else if (c === ESC) this.mode = Mode.StringEscape;
        return;
      case Mode.StringEscape:
        this.mode = c === 0x5c ? Mode.Text : c === ESC ? Mode.StringEscape : Mode.String;
        return;
      default:
        this.mode = Mode.Text;
    }
  }
}

/** Printable text plus the formatting controls a terminal interprets: tab, LF, CR, backspace. */
function isKept(c: number): boolean {
  if (c >= 0x20) return c < 0x7f || c > 0x9f;
  return c === 0x09 || c === 0x0a || c === 0x0d || c === 0x08;
}

/**
 * Plain text of terminal output, as a terminal would show it: control sequences removed, CR LF as LF, a carriage
 * return lets what follows overwrite the line (progress bars leave their last state), a backspace erases the character
 * before it.
 */
export function stripAnsi(text: string): string {
  const plain = new AnsiStripper().push(text);
  if (plain.indexOf('\r') < 0 && plain.indexOf('\b') < 0) return plain;
  return plain.split('\n').map(renderLine).join('\n');
}

/** One line with its carriage returns and backspaces applied. */
function renderLine(line: string): string {
  if (line.indexOf('\r') < 0 && line.indexOf('\b') < 0) return line;
  // A CR at the end of a line (CR LF) moves the cursor but writes nothing.
  const cells: string[] = [];
  let column = 0;
  for (const ch of line) {
    if (ch === '\r') column = 0;
    else if (ch === '\b') column = Math.max(0, column - 1);
    else {
      cells[column] = ch;
      column++;
    }
  }
  // Holes (a backspace past the end) read as nothing.
  return cells.join('');
}

/**
 * Output for a pseudoterminal: a pipe delivers bare LF, which a terminal renders as "down one line, same column".
 * `previousEndedWithCr` carries the state across chunks so a CR LF split between two chunks stays one line break.
 */
export function toTerminalNewlines(text: string, previousEndedWithCr = false): string {
  if (text.indexOf('\n') < 0) return text;
  let out = '';
  let last = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    const precededByCr = i > 0 ? text.charCodeAt(i - 1) === 0x0d : previousEndedWithCr;
    if (precededByCr) continue;
    out += text.slice(last, i) + '\r\n';
    last = i + 1;
  }
  return out + text.slice(last);
}
