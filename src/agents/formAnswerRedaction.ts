import type { TraceEvent } from '../acp/jsonRpc';
import { looksSecret } from '../shared/elicitationForm';

/** Requests whose answers have not been sent: beyond this many the oldest are forgotten (an agent that never gets its answer). */
const MAX_PENDING = 100;

/**
 * Keeps what a user typed into a form field that looks like a secret out of the protocol log, the trace and the debug
 * bundle. `redact` (src/acp/trace.ts) goes by key names, but a form answer's keys are the agent's property names: a
 * field named `answer1` titled "Password" would pass. So each `elicitation/create` the agent sends is read for the
 * fields whose name, title or description names a secret, and the answer sent back with the same id has their values
 * replaced before anything records it. The agent itself gets the real answer: this only changes what is kept.
 */
export class FormAnswerRedaction {
  private readonly pending = new Map<string | number, readonly string[]>();

  /** The event as it may be recorded: the same object unless it is the answer to a form with secret fields. */
  redact(event: TraceEvent): TraceEvent {
    const message = event.message;
    if (typeof message !== 'object' || message === null) return event;
    const m = message as { id?: unknown; method?: unknown; params?: unknown; result?: unknown };
    if (event.direction === 'receive' && m.method === 'elicitation/create' && (typeof m.id === 'string' || typeof m.id === 'number')) {
      const secret = secretFields(m.params);
      if (secret.length) this.remember(m.id, secret);
      return event;
    }
    if (event.direction !== 'send' || this.pending.size === 0 || m.method !== undefined || (typeof m.id !== 'string' && typeof m.id !== 'number')) return event;
    const secret = this.pending.get(m.id);
    if (!secret) return event;
    this.pending.delete(m.id);
    const result = m.result as { content?: unknown } | undefined;
    if (typeof result?.content !== 'object' || result.content === null) return event;
    const content = { ...(result.content as Record<string, unknown>) };
    for (const name of secret) if (name in content) content[name] = '***';
    return { ...event, message: { ...m, result: { ...result, content } } };
  }

  private remember(id: string | number, fields: readonly string[]): void {
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(id, fields);
  }
}

/** The property names of a form request that look like secrets (by name, title or description). */
function secretFields(params: unknown): string[] {
  const schema = (params as { requestedSchema?: { properties?: unknown } } | undefined)?.requestedSchema;
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const names: string[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    const p = (typeof property === 'object' && property !== null ? property : {}) as { title?: unknown; description?: unknown };
    if (looksSecret(name, typeof p.title === 'string' ? p.title : undefined, typeof p.description === 'string' ? p.description : undefined)) names.push(name);
  }
  return names;
}
