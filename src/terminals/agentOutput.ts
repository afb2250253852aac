import { stripAnsi } from '../shared/ansi';
import { Emitter } from '../base/event';
import { TAIL_CHARS, type TerminalTailView } from './managedTerminal';
import { OutputBuffer } from './outputBuffer';
import type { ExitStatus } from './processTree';

/**
 * Output of commands the agent runs itself, as it reports them (agents-in-the-wild.md):
 *   - Claude Code and Pi: `_meta.terminal_info` {terminal_id, cwd}, `_meta.terminal_output` {terminal_id, data} (each
 *     carrying the next piece), `_meta.terminal_exit` {terminal_id, exit_code, signal};
 *   - Codex: the same keys, or `_meta.terminal_output_delta` {terminal_id, data}; and when it streams nothing, the
 *     output only in the `rawOutput` of the completed `execute` call ({aggregated_output | formatted_output | stdout,
 *     stderr, exit_code});
 *   - OpenCode: the output streamed as text `content`, then the completed call's `rawOutput` {output, metadata: {output,
 *     exit, truncated}} — the exit status only in `metadata.exit` (null when the command was stopped).
 * The session keeps only the latest `_meta` of a tool call, so the pieces are collected here as they arrive. A new
 * piece is recognised by object identity: the session replaces `meta.terminal_output` only when an update carries one.
 * A piece without `terminal_id`, and a `rawOutput`, belong to the id `tool:<toolCallId>`. Pure.
 */

/** A tool call as this model reads it (structurally the session's `ToolCallState`). */
export interface ToolCallLike {
  readonly toolCallId: string;
  readonly kind?: string;
  readonly status?: string;
  readonly content?: readonly { readonly type: string; readonly terminalId?: string }[];
  readonly rawOutput?: unknown;
  readonly meta?: Record<string, unknown>;
}

/** What a `rawOutput` or the agent's terminal keeps for replay and the tail. */
const KEEP_BYTES = 1024 * 1024;
const OUTPUT_KEYS = ['terminal_output', 'terminal_output_delta'] as const;
const ENDED = new Set(['completed', 'failed', 'cancelled', 'rejected']);

interface AgentTerminal {
  readonly id: string;
  readonly toolCallId: string;
  readonly output: OutputBuffer;
  exit?: ExitStatus;
  /** The tool call ended without an exit report. */
  ended: boolean;
  cwd?: string;
  tail?: TerminalTailView;
}

export class AgentTerminalOutputs {
  private readonly terminals = new Map<string, AgentTerminal>();
  private readonly seen = new WeakSet<object>();
  private readonly rawSeen = new Map<string, unknown>();
  private readonly changed = new Emitter<string>();
  private readonly data = new Emitter<{ terminalId: string; text: string }>();
  /** A terminal's output or state changed. */
  readonly onDidChange = this.changed.event;
  /** A new piece of output, for views that follow a terminal. */
  readonly onData = this.data.event;

  /** Reads what is new in a tool call; returns the ids of the terminals that changed. */
  observe(call: ToolCallLike): string[] {
    const changed = new Set<string>();
    const meta = call.meta;
    if (meta) {
      const info = meta.terminal_info;
      if (isRecord(info) && this.isNew(info)) {
        const t = this.terminal(idOf(info, call), call.toolCallId);
        if (typeof info.cwd === 'string') t.cwd = info.cwd;
        changed.add(t.id);
      }
      for (const key of OUTPUT_KEYS) {
        const piece = meta[key];
        if (!isRecord(piece) || !this.isNew(piece) || typeof piece.data !== 'string') continue;
        const t = this.terminal(idOf(piece, call), call.toolCallId);
        t.output.append(piece.data);
        this.data.fire({ terminalId: t.id, text: piece.data });
        changed.add(t.id);
      }
      const exit = meta.terminal_exit;
      if (isRecord(exit) && this.isNew(exit)) {
        const t = this.terminal(idOf(exit, call), call.toolCallId);
        t.exit = { exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null, signal: typeof exit.signal === 'string' ? exit.signal : null };
        changed.add(t.id);
      }
    }
    this.observeRawOutput(call, changed);
    if (call.status && ENDED.has(call.status)) {
      for (const t of this.terminals.values()) {
        if (t.toolCallId === call.toolCallId && !t.ended) {
          t.ended = true;
          changed.add(t.id);
        }
      }
    }
    for (const id of changed) {
      const t = this.terminals.get(id);
      if (t) t.tail = undefined;
      this.changed.fire(id);
    }
    return [...changed];
  }

  has(terminalId: string): boolean {
    return this.terminals.has(terminalId);
  }

  /** The panel's view of an agent-reported terminal. */
  tail(terminalId: string): TerminalTailView | undefined {
    const t = this.terminals.get(terminalId);
    if (!t) return undefined;
    if (!t.tail) {
      const raw = t.output.text;
      let from = Math.max(0, raw.length - TAIL_CHARS);
      if (from > 0 && (raw.charCodeAt(from) & 0xfc00) === 0xdc00) from++;
      t.tail = {
        output: stripAnsi(raw.slice(from)),
        truncated: from > 0 || t.output.truncated,
        exit: t.exit ? { code: t.exit.exitCode, signal: t.exit.signal } : undefined,
        running: !t.exit && !t.ended,
      };
    }
    return t.tail;
  }

  /** Raw output so far (colours kept), for a terminal view to replay. */
  replay(terminalId: string): string {
    return this.terminals.get(terminalId)?.output.text ?? '';
  }

  exitStatus(terminalId: string): ExitStatus | undefined {
    return this.terminals.get(terminalId)?.exit;
  }

  running(terminalId: string): boolean {
    const t = this.terminals.get(terminalId);
    return !!t && !t.exit && !t.ended;
  }

  /** The tool call whose updates reported this terminal. */
  toolCallIdOf(terminalId: string): string | undefined {
    return this.terminals.get(terminalId)?.toolCallId;
  }

  /** Terminal ids this model knows for a tool call, in the order they appeared. */
  idsForToolCall(toolCallId: string): string[] {
    return [...this.terminals.values()].filter((t) => t.toolCallId === toolCallId).map((t) => t.id);
  }

  dispose(): void {
    this.changed.dispose();
    this.data.dispose();
  }

  /** Codex, OpenCode: a finished `execute` call with its output (and exit status) in `rawOutput`, and nothing streamed for it as a terminal. */
  private observeRawOutput(call: ToolCallLike, changed: Set<string>): void {
    if (call.kind !== 'execute' || !call.status || !ENDED.has(call.status) || call.rawOutput === undefined) return;
    if (this.rawSeen.get(call.toolCallId) === call.rawOutput) return;
    this.rawSeen.set(call.toolCallId, call.rawOutput);
    const id = `tool:${call.toolCallId}`;
    const own = [...this.terminals.values()].filter((t) => t.toolCallId === call.toolCallId && t.id !== id);
    const parsed = parseRawOutput(call.rawOutput);
    if (own.some((t) => t.output.byteLength > 0) || !parsed) return;
    if (own.length === 1) {
      // Codex (codex-acp 0.16) announces a terminal in `_meta` and reports its exit there, but a short command's output
      // only in rawOutput: it belongs in that terminal, not in a second one beside it.
      const t = own[0];
      t.output.append(parsed.output);
      t.exit ??= parsed.exit;
      t.ended = true;
      changed.add(t.id);
      return;
    }
    const existing = this.terminals.get(id);
    if (existing) this.terminals.delete(id);
    const t = this.terminal(id, call.toolCallId);
    t.output.append(parsed.output);
    t.exit = parsed.exit;
    t.ended = true;
    changed.add(id);
  }

  private isNew(piece: object): boolean {
    if (this.seen.has(piece)) return false;
    this.seen.add(piece);
    return true;
  }

  private terminal(id: string, toolCallId: string): AgentTerminal {
    let t = this.terminals.get(id);
    if (!t) this.terminals.set(id, (t = { id, toolCallId, output: new OutputBuffer(KEEP_BYTES), ended: false }));
    return t;
  }
}

/** The output text and exit status in the shapes agents put in `rawOutput`. */
export function parseRawOutput(raw: unknown): { output: string; exit?: ExitStatus } | undefined {
  if (typeof raw === 'string') return raw ? { output: raw } : undefined;
  if (!isRecord(raw)) return undefined;
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const output =
    text('aggregated_output') ??
    text('formatted_output') ??
    text('output') ??
    (text('stdout') !== undefined || text('stderr') !== undefined ? `${text('stdout') ?? ''}${text('stderr') ?? ''}` : undefined);
  const metadata = isRecord(raw.metadata) ? raw.metadata : undefined;
  const code = [raw.exit_code, raw.exitCode, metadata?.exit].find((v) => typeof v === 'number') as number | undefined;
  if (output === undefined && code === undefined) return undefined;
  return { output: output ?? '', exit: code !== undefined ? { exitCode: code, signal: null } : undefined };
}

function idOf(piece: Record<string, unknown>, call: ToolCallLike): string {
  return typeof piece.terminal_id === 'string' && piece.terminal_id ? piece.terminal_id : `tool:${call.toolCallId}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
