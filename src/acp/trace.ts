import type { TraceEvent } from './jsonRpc';

export type TraceLevel = 'off' | 'messages' | 'verbose';

/** Deeper than this, `redact` replaces a value with a placeholder. */
const MAX_REDACT_DEPTH = 100;

const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|cookie|credential/i;

/**
 * Replaces values that may be secrets before anything is logged: every environment value (`env` objects and
 * `{name, value}` lists), HTTP header values, and any key that names a credential.
 */
export function redact(value: unknown, key = '', depth = 0): unknown {
  // An agent's JSON can nest deeper than the stack allows (10,000 levels parse fine): cut it, the log stays readable.
  if (depth >= MAX_REDACT_DEPTH && typeof value === 'object' && value !== null) return '(nested too deeply to show)';
  if (Array.isArray(value)) {
    if (key === 'env' || key === 'headers') {
      return value.map((item) =>
        typeof item === 'object' && item !== null && 'value' in item ? { ...item, value: '***' } : redact(item, '', depth + 1),
      );
    }
    return value.map((item) => redact(item, '', depth + 1));
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'env' || k === 'headers') && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        out[k] = Object.fromEntries(Object.keys(v).map((name) => [name, '***']));
      } else if (SECRET_KEY.test(k) && typeof v === 'string') {
        out[k] = '***';
      } else {
        out[k] = redact(v, k, depth + 1);
      }
    }
    return out;
  }
  return value;
}

/** One line describing a message, like a language client's `trace.server`. */
export function describeMessage(event: TraceEvent): string {
  const arrow = event.direction === 'send' ? '→' : '←';
  const m = event.message;
  if (typeof m !== 'object' || m === null) return `${arrow} invalid message (${event.bytes} B)`;
  const msg = m as { id?: unknown; method?: unknown; error?: { code?: unknown; message?: unknown }; params?: unknown };
  const size = `(${event.bytes} B)`;
  if (typeof msg.method === 'string') {
    const update = msg.method === 'session/update' ? ` ${String((msg.params as { update?: { sessionUpdate?: unknown } })?.update?.sessionUpdate)}` : '';
    return msg.id === undefined
      ? `${arrow} notification ${msg.method}${update} ${size}`
      : `${arrow} request #${String(msg.id)} ${msg.method} ${size}`;
  }
  if (msg.error) return `${arrow} error #${String(msg.id)} ${String(msg.error.code)} ${String(msg.error.message)} ${size}`;
  return `${arrow} response #${String(msg.id)} ${size}`;
}

export function formatTrace(event: TraceEvent, level: TraceLevel): string | undefined {
  if (level === 'off') return undefined;
  const line = describeMessage(event);
  if (level === 'messages') return line;
  let body: string;
  try {
    body = typeof event.message === 'string' ? event.message : JSON.stringify(redact(event.message), null, 2);
  } catch {
    // Nested deeper than the stack allows (a hostile agent): the one-line description still stands.
    body = '(nested too deeply to show)';
  }
  return `${line}\n${body}`;
}
