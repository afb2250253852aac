/**
 * Messages the user sent while a turn was running, waiting to be sent in order, one turn each, when it ends. Part of
 * the session's domain state: saved with the transcript, so they survive a window reload. Attachments are kept as the
 * panel gave them (JSON): the panel parses them again before it sends. Pure: no I/O, no VS Code.
 */
export interface QueuedMessage {
  readonly id: number;
  readonly text: string;
  readonly attachments: readonly unknown[];
}

/** Past this many, a new message is refused: a queue is a few follow-ups, not a backlog. */
export const MAX_QUEUED = 50;

export class PromptQueue {
  private list: QueuedMessage[] = [];
  private nextId = 1;

  /** `changed` runs after every change (the session state turns it into a `queue` change event). */
  constructor(private readonly changed: () => void) {}

  get items(): readonly QueuedMessage[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** Adds a message at the end; undefined when the queue is full. */
  add(text: string, attachments: readonly unknown[]): QueuedMessage | undefined {
    if (this.list.length >= MAX_QUEUED) return undefined;
    const message = { id: this.nextId++, text, attachments: [...attachments] };
    this.list = [...this.list, message];
    this.changed();
    return message;
  }

  /** Replaces a queued message's text (its attachments stay); false when it is no longer queued. */
  edit(id: number, text: string): boolean {
    const i = this.list.findIndex((m) => m.id === id);
    if (i < 0) return false;
    this.list = this.list.map((m) => (m.id === id ? { ...m, text } : m));
    this.changed();
    return true;
  }

  remove(id: number): boolean {
    const before = this.list.length;
    this.list = this.list.filter((m) => m.id !== id);
    if (this.list.length === before) return false;
    this.changed();
    return true;
  }

  /** Moves a message to the front (Send now); false when it is no longer queued. */
  promote(id: number): boolean {
    const message = this.list.find((m) => m.id === id);
    if (!message) return false;
    this.list = [message, ...this.list.filter((m) => m.id !== id)];
    this.changed();
    return true;
  }

  /** Takes the first message off the queue, to send it. */
  shift(): QueuedMessage | undefined {
    const [first, ...rest] = this.list;
    if (!first) return undefined;
    this.list = rest;
    this.changed();
    return first;
  }

  /** Puts a message back at the front (it could not be sent). */
  unshift(message: QueuedMessage): void {
    this.list = [message, ...this.list.filter((m) => m.id !== message.id)];
    this.changed();
  }

  /** The saved queue after a window reload; ids continue after the highest. */
  restore(saved: readonly QueuedMessage[]): void {
    this.list = saved.slice(0, MAX_QUEUED).map((m) => ({ id: m.id, text: m.text, attachments: [...m.attachments] }));
    this.nextId = Math.max(0, ...this.list.map((m) => m.id)) + 1;
    this.changed();
  }
}
