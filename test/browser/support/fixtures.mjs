// Builders for host → webview messages (the shapes of src/panel/protocol.ts).

export function header(overrides = {}) {
  return {
    status: 'ready', sessionKey: 's1', agentName: 'Fake Agent', agentVersion: '1.2.3', title: undefined,
    sessions: [{ key: 's1', label: 'Fake Agent (s1)' }], configOptions: [], capabilities: { image: true, embeddedContext: false },
    ...overrides,
  };
}

let epoch = 100;
export function snapshot({ entries = [], plan = [], commands = [], turn = 'idle', queue = [], head = {}, first = 0 } = {}) {
  return { type: 'snapshot', epoch: ++epoch, header: header(head), first, entries, plan, commands, turn, queue };
}

export const queued = (id, text, attachments = []) => ({ id, text, attachments });

export function patch(snap, ...ops) {
  return { type: 'patch', epoch: snap.epoch, ops };
}

export const user = (id, text, attachments = []) => ({ kind: 'user', id, text, attachments });
export const agent = (id, text, blocks = []) => ({ kind: 'agent', id, text, blocks });
export const thought = (id, text) => ({ kind: 'thought', id, text });
export const notice = (id, title, severity = 'info', description) => ({ kind: 'notice', id, severity, title, description });
export const unknown = (id, label, raw) => ({ kind: 'unknown', id, label, raw });
export const turnEnd = (id, stopReason) => ({ kind: 'turn-end', id, stopReason });
export const error = (id, message, retryable = true, detail) => ({ kind: 'error', id, message, retryable, detail });

export function tool(id, overrides = {}) {
  return {
    kind: 'tool', id,
    tool: { toolCallId: `tc-${id}`, title: `Tool ${id}`, kind: 'read', status: 'completed', locations: [], content: [], ...overrides },
  };
}

export function permission(options = defaultOptions()) {
  return { requestId: 1, options };
}

export function defaultOptions() {
  return [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
}

/** A form field as the host projects it (src/shared/elicitationForm.ts), and a release form of four kinds of field. */
export const field = (name, kind, extra = {}) => ({ name, label: extra.label ?? name, required: false, secret: false, kind, ...extra });
export const releaseForm = {
  fields: [
    field('version', 'text', { label: 'Version', required: true, description: 'A tag such as v1.2.3', pattern: '^v\\d' }),
    field('replicas', 'number', { label: 'Replicas', integer: true, minimum: 1, maximum: 9, default: 2 }),
    field('region', 'select', { label: 'Region', options: [{ value: 'eu', label: 'Europe' }, { value: 'us', label: 'United States' }], default: 'eu' }),
    field('canary', 'boolean', { label: 'Canary first' }),
  ],
  asksForSecret: false,
  omitted: 0,
};
/** An agent's question waiting in the transcript. */
export const question = (id, elicitation) => ({ kind: 'elicitation', id, elicitation: { key: id, mode: 'form', message: 'Which release?', status: 'waiting', ...elicitation } });
