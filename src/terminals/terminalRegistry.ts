import { Emitter, type Disposable } from '../base/event';
import type { ManagedTerminal, TerminalTailView } from './managedTerminal';

/**
 * Every terminal Howdah started for an agent, by id, for the parts that show them (the panel's live tail, "Open in
 * terminal"). Ids are unique across sessions. A released terminal stays listed so a conversation can still show its
 * output, up to a bound; the oldest released ones go first. Change events are throttled per terminal, since a command
 * can print thousands of chunks a second and the panel needs at most a few frames' worth. Pure.
 */

const MAX_RELEASED = 200;
const CHANGE_INTERVAL_MS = 50;

export class TerminalRegistry implements Disposable {
  private readonly terminals = new Map<string, ManagedTerminal>();
  private readonly subscriptions = new Map<string, Disposable>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly changed = new Emitter<string>();
  private nextId = 1;
  /** A terminal's output or state changed (at most every 50 ms per terminal); consumers re-read it. */
  readonly onDidChange = this.changed.event;

  /** A new terminal id, never reused in this extension host. */
  newId(): string {
    return `howdah-term-${this.nextId++}`;
  }

  add(terminal: ManagedTerminal): void {
    this.terminals.set(terminal.id, terminal);
    this.subscriptions.set(
      terminal.id,
      terminal.follow(
        () => this.schedule(terminal.id),
        () => this.fireNow(terminal.id),
      ),
    );
    this.fireNow(terminal.id);
    this.evictReleased();
  }

  get(id: string): ManagedTerminal | undefined {
    return this.terminals.get(id);
  }

  /** The panel's view of a terminal we started, or undefined for an id we did not. */
  tail(id: string): TerminalTailView | undefined {
    return this.terminals.get(id)?.tail();
  }

  /** Tells listeners that a terminal changed in a way its events do not carry (released). */
  touch(id: string): void {
    if (this.terminals.has(id)) this.fireNow(id);
  }

  all(): ManagedTerminal[] {
    return [...this.terminals.values()];
  }

  dispose(): void {
    for (const terminal of this.terminals.values()) terminal.killNow();
    for (const s of this.subscriptions.values()) s.dispose();
    for (const t of this.pending.values()) clearTimeout(t);
    this.terminals.clear();
    this.subscriptions.clear();
    this.pending.clear();
    this.changed.dispose();
  }

  private schedule(id: string): void {
    if (this.pending.has(id)) return;
    this.pending.set(
      id,
      setTimeout(() => this.fireNow(id), CHANGE_INTERVAL_MS),
    );
  }

  private fireNow(id: string): void {
    const timer = this.pending.get(id);
    if (timer) clearTimeout(timer);
    this.pending.delete(id);
    this.changed.fire(id);
  }

  private evictReleased(): void {
    const released = [...this.terminals.values()].filter((t) => t.isReleased);
    for (const terminal of released.slice(0, Math.max(0, released.length - MAX_RELEASED))) {
      this.subscriptions.get(terminal.id)?.dispose();
      this.subscriptions.delete(terminal.id);
      this.terminals.delete(terminal.id);
    }
  }
}
