import { AgentTerminalOutputs, type ToolCallLike } from './agentOutput';
import { Emitter, type Disposable } from '../base/event';
import type { TerminalTailView } from './managedTerminal';
import type { ExitStatus } from './processTree';
import type { TerminalRegistry } from './terminalRegistry';
import * as l10n from '@vscode/l10n';

/**
 * Command output for one session's conversation, whoever ran the command: terminals we started for `terminal/create`
 * (live, from the registry) and terminals the agent runs itself and reports in `_meta` / `rawOutput`. For each
 * terminal id: the output tail as plain text, the exit status, whether it still runs. The panel asks `get(id)` for a
 * tool call's `terminal` content and `terminalIds(toolCallId)` for output reported only in `_meta`; `onDidChange`
 * names the tool calls to render again. `replaySource(id)` feeds "Open in terminal". Pure: no `vscode`.
 */

/** The session as this model reads it (structurally the session's `SessionState`). */
export interface ToolCallSource {
  readonly toolCalls: ReadonlyMap<string, ToolCallLike>;
  readonly entries?: readonly { readonly kind: string; readonly toolCallId?: string }[];
  onChange(listener: (change: { type: string; toolCallId?: string; index?: number }) => void): Disposable;
}

export interface TerminalChange {
  terminalId: string;
  /** The tool calls that show this terminal. */
  toolCallIds: string[];
}

/** A terminal's output for a view that replays it and then follows it. */
export interface ReplaySource {
  readonly title: string;
  replay(): string;
  follow(onData: (text: string) => void, onExit: (status: ExitStatus | undefined) => void): Disposable;
  exitStatus(): ExitStatus | undefined;
  running(): boolean;
  /** Only for a command we started: stop it (the view asks the user first). */
  kill?(): Promise<void>;
}

export class TerminalOutputModel implements Disposable {
  readonly agent = new AgentTerminalOutputs();
  private readonly shownBy = new Map<string, Set<string>>();
  private readonly changed = new Emitter<TerminalChange>();
  private readonly subscriptions: Disposable[] = [];
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly source: ToolCallSource,
    private readonly registry?: TerminalRegistry,
  ) {
    this.subscriptions.push(
      source.onChange((change) => {
        if (change.type === 'tool-call' && change.toolCallId) this.observe(change.toolCallId);
        else if (change.type === 'reset') for (const id of source.toolCalls.keys()) this.observe(id);
        else if (change.type === 'entry-added') {
          const entry = change.index !== undefined ? source.entries?.[change.index] : undefined;
          if (entry?.toolCallId) this.observe(entry.toolCallId);
          else if (!source.entries) for (const id of source.toolCalls.keys()) this.observe(id);
        }
      }),
      this.agent.onDidChange((terminalId) => this.fire(terminalId)),
    );
    if (registry) this.subscriptions.push(registry.onDidChange((terminalId) => this.shownBy.has(terminalId) && this.fire(terminalId)));
    for (const id of source.toolCalls.keys()) this.observe(id);
  }

  /** The view of a terminal: ours first (live), else what the agent reported. Undefined when nothing is known. */
  get(terminalId: string): TerminalTailView | undefined {
    return this.registry?.tail(terminalId) ?? this.agent.tail(terminalId);
  }

  /**
   * Every terminal a tool call shows: its `terminal` content, then ids only reported in `_meta` or `rawOutput`. The
   * `rawOutput` of a call whose command we run (an exit code, perhaps the output) repeats what our terminal shows.
   */
  terminalIds(toolCallId: string): string[] {
    const call = this.source.toolCalls.get(toolCallId);
    const ids: string[] = [];
    for (const c of call?.content ?? []) if (c.type === 'terminal' && c.terminalId && !ids.includes(c.terminalId)) ids.push(c.terminalId);
    const ours = ids.some((id) => this.registry?.get(id));
    for (const id of this.agent.idsForToolCall(toolCallId)) {
      if (!ids.includes(id) && !(ours && id === `tool:${toolCallId}`)) ids.push(id);
    }
    return ids;
  }

  /** What "Open in terminal" replays and follows for this id, or undefined when there is nothing to show. */
  replaySource(terminalId: string): ReplaySource | undefined {
    const ours = this.registry?.get(terminalId);
    if (ours) {
      return {
        title: ours.commandLine,
        replay: () => ours.replay(),
        follow: (onData, onExit) => ours.follow(onData, onExit),
        exitStatus: () => ours.exitStatus,
        running: () => ours.running,
        kill: ours.isReleased ? undefined : () => ours.kill(),
      };
    }
    if (!this.agent.has(terminalId)) return undefined;
    const agent = this.agent;
    return {
      title: terminalId.startsWith('tool:') ? this.titleOf(terminalId.slice(5)) : this.titleOf(this.toolCallOf(terminalId)),
      replay: () => agent.replay(terminalId),
      follow: (onData, onExit) => {
        const a = agent.onData((e) => e.terminalId === terminalId && onData(e.text));
        let ended = !agent.running(terminalId);
        const b = agent.onDidChange((id) => {
          if (id !== terminalId || ended || agent.running(id)) return;
          ended = true;
          onExit(agent.exitStatus(id));
        });
        return { dispose: () => (a.dispose(), b.dispose()) };
      },
      exitStatus: () => agent.exitStatus(terminalId),
      running: () => agent.running(terminalId),
    };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.agent.dispose();
    this.changed.dispose();
  }

  private observe(toolCallId: string): void {
    const call = this.source.toolCalls.get(toolCallId);
    if (!call) return;
    this.agent.observe(call);
    for (const id of this.terminalIds(toolCallId)) {
      let set = this.shownBy.get(id);
      if (!set) this.shownBy.set(id, (set = new Set()));
      if (!set.has(toolCallId)) {
        set.add(toolCallId);
        // Content that names a terminal we already have output for: show it now.
        if (this.registry?.get(id)) this.fire(id);
      }
    }
  }

  private fire(terminalId: string): void {
    const toolCallIds = new Set(this.shownBy.get(terminalId));
    const reporting = this.agent.toolCallIdOf(terminalId);
    if (reporting) toolCallIds.add(reporting);
    this.changed.fire({ terminalId, toolCallIds: [...toolCallIds] });
  }

  private toolCallOf(terminalId: string): string {
    return this.agent.toolCallIdOf(terminalId) ?? [...(this.shownBy.get(terminalId) ?? [])][0] ?? '';
  }

  private titleOf(toolCallId: string): string {
    const call = this.source.toolCalls.get(toolCallId) as (ToolCallLike & { title?: string }) | undefined;
    return call?.title ?? l10n.t('Command output');
  }
}
