import type { SessionChange, ToolCallState } from '../session/state';

/**
 * Output of commands the agent runs itself and reports in `_meta` (claude-agent-acp's `terminal_info` /
 * `terminal_output` / `terminal_exit`; Pi does the same unasked). Each `terminal_output` carries the next piece of
 * output, but the session keeps only the latest `_meta` of a tool call, so the pieces are collected here, for the
 * life of the session, whether or not the panel is open. A new piece is recognised by object identity: the session
 * replaces `meta.terminal_output` only when an update carries one.
 */

export interface TerminalTail {
  output: string;
  truncated: boolean;
  exit?: { code: number | null; signal: string | null };
}

/** Kept per terminal: enough for a live tail, not a full log. */
export const TAIL_LIMIT = 32 * 1024;

interface ToolCallSource {
  readonly toolCalls: ReadonlyMap<string, ToolCallState>;
  onChange(listener: (change: SessionChange) => void): { dispose(): void };
}

export class TerminalTails {
  private readonly tails = new Map<string, TerminalTail>();
  private readonly seen = new WeakMap<object, true>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly source: ToolCallSource) {
    this.subscription = source.onChange((change) => {
      if (change.type === 'tool-call') this.collect(change.toolCallId);
      else if (change.type === 'entry-added' || change.type === 'reset') this.collectAll();
    });
    this.collectAll();
  }

  /** The output collected for `terminalId`, if the agent reported any. */
  get(terminalId: string): TerminalTail | undefined {
    return this.tails.get(terminalId);
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private collectAll(): void {
    for (const id of this.source.toolCalls.keys()) this.collect(id);
  }

  private collect(toolCallId: string): void {
    const meta = this.source.toolCalls.get(toolCallId)?.meta;
    if (!meta) return;
    const output = meta.terminal_output;
    if (isRecord(output) && !this.seen.has(output)) {
      this.seen.set(output, true);
      const id = terminalIdOf(output, toolCallId);
      if (typeof output.data === 'string') this.append(id, output.data);
    }
    const exit = meta.terminal_exit;
    if (isRecord(exit) && !this.seen.has(exit)) {
      this.seen.set(exit, true);
      const tail = this.tailFor(terminalIdOf(exit, toolCallId));
      tail.exit = {
        code: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      };
    }
  }

  private append(terminalId: string, data: string): void {
    const tail = this.tailFor(terminalId);
    tail.output += data;
    if (tail.output.length > TAIL_LIMIT) {
      let cut = tail.output.length - TAIL_LIMIT;
      // Do not start in the middle of a surrogate pair.
      const code = tail.output.charCodeAt(cut);
      if (code >= 0xdc00 && code <= 0xdfff) cut++;
      tail.output = tail.output.slice(cut);
      tail.truncated = true;
    }
  }

  private tailFor(terminalId: string): TerminalTail {
    let tail = this.tails.get(terminalId);
    if (!tail) this.tails.set(terminalId, (tail = { output: '', truncated: false }));
    return tail;
  }
}

/** The terminal a `_meta` piece belongs to; without an id, the tool call's own. */
function terminalIdOf(piece: Record<string, unknown>, toolCallId: string): string {
  return typeof piece.terminal_id === 'string' ? piece.terminal_id : `tool:${toolCallId}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
