import type { ClientCapabilities } from './capabilities';
import { clientMethodByName, clientMethods } from './methods';
import type { ProtocolWarning, TraceEvent } from './jsonRpc';
import { SessionNotification } from './schema/sessionUpdate';

export interface RecordedMessage {
  readonly seq: number;
  readonly time: number;
  readonly direction: 'send' | 'receive' | 'warning';
  readonly bytes: number;
  /** The parsed message, the raw text of an unparsable one, or the warning text. */
  readonly message: unknown;
}

export interface TimelineEntry extends RecordedMessage {
  readonly method: string;
  readonly id?: string | number;
  /** Where this message breaks the spec; empty when it does not. */
  readonly problems: string[];
}

const DEFAULT_CAPACITY = 5000;

/**
 * Keeps the last messages of a connection for the protocol log. Recording is cheap (a reference and a timestamp);
 * checking each message against the spec happens only when the timeline is looked at.
 */
export class ProtocolRecorder {
  /** A circular buffer: `next` is where the next message goes once it is full. */
  private readonly ring: RecordedMessage[] = [];
  private next = 0;
  private seq = 0;
  private dropped = 0;

  constructor(
    private readonly capabilities: ClientCapabilities,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  trace(event: TraceEvent): void {
    this.push({ seq: ++this.seq, time: Date.now(), direction: event.direction, bytes: event.bytes, message: event.message });
  }

  warning(warning: ProtocolWarning): void {
    this.push({ seq: ++this.seq, time: Date.now(), direction: 'warning', bytes: 0, message: warning.message });
  }

  /** Messages older than the window that were let go. */
  get droppedCount(): number {
    return this.dropped;
  }

  timeline(): TimelineEntry[] {
    const sentIds = new Set<string | number>();
    const entries: TimelineEntry[] = [];
    const ordered = this.ring.length < this.capacity ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    for (const recorded of ordered) {
      const m = recorded.message as Record<string, unknown> | string;
      const problems: string[] = [];
      let method = '';
      let id: string | number | undefined;
      if (recorded.direction === 'warning') {
        method = 'warning';
        problems.push(String(m));
      } else if (typeof m !== 'object' || m === null || Array.isArray(m)) {
        method = '(invalid)';
        problems.push('Not a JSON-RPC message object');
      } else {
        id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
        method = typeof m.method === 'string' ? m.method : m.error ? 'error' : 'response';
        if (recorded.direction === 'send') {
          if (id !== undefined && typeof m.method === 'string') sentIds.add(id);
        } else {
          problems.push(...this.check(m, sentIds));
        }
      }
      entries.push({ ...recorded, method, id, problems });
    }
    return entries;
  }

  private check(m: Record<string, unknown>, sentIds: Set<string | number>): string[] {
    const problems: string[] = [];
    if (m.jsonrpc !== '2.0') problems.push('Missing "jsonrpc": "2.0"');
    if (typeof m.method !== 'string') {
      const id = m.id as string | number;
      if (!sentIds.has(id)) problems.push(`Response to an unknown request id ${JSON.stringify(m.id)}`);
      else sentIds.delete(id);
      return problems;
    }
    if (m.method === 'session/update') {
      const parsed = SessionNotification.safeParse(m.params);
      if (!parsed.success) problems.push('Invalid session/update params');
      else if (parsed.data.update.sessionUpdate === 'unknown') {
        const u = parsed.data.update;
        problems.push(u.error ? `Invalid ${u.original ?? 'update'}: ${u.error}` : `Unknown update kind "${u.original ?? '?'}"`);
      }
      return problems;
    }
    const key = clientMethodByName.get(m.method);
    if (key) {
      const entry = clientMethods[key];
      if (!entry.advertised(this.capabilities)) problems.push(`${m.method} was not advertised by Howdah`);
      else if (!entry.params.safeParse(m.params).success) problems.push(`Invalid params for ${m.method}`);
    } else if (!m.method.startsWith('_') && !m.method.startsWith('$/')) {
      problems.push(`Unknown method ${m.method}`);
    }
    return problems;
  }

  private push(message: RecordedMessage): void {
    if (this.ring.length < this.capacity) {
      this.ring.push(message);
      return;
    }
    this.ring[this.next] = message;
    this.next = (this.next + 1) % this.capacity;
    this.dropped++;
  }
}
