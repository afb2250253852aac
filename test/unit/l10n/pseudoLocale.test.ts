// First: the DOM and the pseudo-locale are in place before any webview module runs.
import { PSEUDO_CLOSE, PSEUDO_OPEN, pageWindow } from '../support/pseudoPage';
import { strict as assert } from 'node:assert';
import type { GateView } from '../../../src/shared/gateProtocol';
import type { EntryView, HeaderView, HostMessage, SnapshotMessage } from '../../../src/shared/protocol';
import { ChatApp } from '../../../webview/app';
import { HostChannel } from '../../../webview/hostChannel';

/*
 * The chat page rendered in a pseudo-locale: every text a person sees or hears (text nodes, aria-label, title,
 * placeholder, alt, aria-valuetext) must come from the bundle (it carries ⟦ ⟧) or from what the host sent (agent
 * content, names, paths, numbers). A word that is neither is a hard-coded string the static scan could not see.
 * The fixtures speak a made-up language (zorbl, quux…) so that no English word of the page hides among them.
 */

const SHOWN_ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext', 'aria-description', 'aria-roledescription'];

/** Every string in the host's messages: what the page may show without translating it. */
function dataStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value, value.replace(/_/g, ' '));
  else if (Array.isArray(value)) value.forEach((v) => dataStrings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => dataStrings(v, out));
  return out;
}

/** The words of `text` that are neither inside a pseudo-translated message nor part of the host's data. */
function strayWords(text: string, data: string): string[] {
  let rest = text;
  // Innermost first: a translated message may carry another one as an argument.
  for (let previous = ''; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(new RegExp(`${PSEUDO_OPEN}[^${PSEUDO_OPEN}${PSEUDO_CLOSE}]*${PSEUDO_CLOSE}`, 'gu'), ' ');
  }
  return (rest.match(/[\p{L}\p{N}_'’.\-/@]+/gu) ?? []).filter((word) => /\p{L}/u.test(word) && !data.includes(word));
}

function untranslated(root: Element, messages: readonly HostMessage[]): string[] {
  const data = dataStrings(messages).join('\n');
  const found: string[] = [];
  const where = (node: Node): string => {
    const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
    return element ? `<${element.tagName.toLowerCase()}${element.className ? ` class="${element.className}"` : ''}>` : '?';
  };
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const words = strayWords(node.nodeValue ?? '', data);
      if (words.length) found.push(`${where(node)} text ${JSON.stringify(node.nodeValue)}: ${words.join(', ')}`);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    if (element.tagName === 'SCRIPT' || element.tagName === 'STYLE') return;
    for (const name of SHOWN_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      const words = strayWords(value, data);
      if (words.length) found.push(`${where(element)} ${name} ${JSON.stringify(value)}: ${words.join(', ')}`);
    }
    element.childNodes.forEach(walk);
  };
  walk(root);
  return found;
}

const header = (overrides: Partial<HeaderView> = {}): HeaderView => ({
  status: 'ready',
  sessionKey: 's1',
  agentName: 'Zorbl Agent',
  agentVersion: '9.8.7',
  title: 'Quux plans',
  sessions: [{ key: 's1', label: 'Zorbl Agent (quux)' }],
  modes: { current: 'fnord', options: [{ value: 'fnord', name: 'Fnord mode', description: 'Fnords only' }, { value: 'blarg', name: 'Blarg mode' }] },
  models: { current: 'm1', options: [{ value: 'm1', name: 'Gloop-1' }] },
  configOptions: [
    { type: 'select', id: 'effort', name: 'Vorp effort', current: 'hi', groups: [{ options: [{ value: 'hi', name: 'Vorp high' }, { value: 'lo', name: 'Vorp low' }] }] },
    { type: 'boolean', id: 'snarf', name: 'Snarf toggle', current: true },
  ],
  usage: { used: 12_345, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
  capabilities: { image: true, embeddedContext: true, midTurn: true },
  workspaceFolders: [{ name: 'wsquux', path: '/wsquux' }],
  allowances: { folders: ['/wsquux', '/wsblarg'], read: true, write: 'ask', terminal: 'ask', commandRules: { deny: 2, ask: 1 }, mcpServers: [{ name: 'zorblmcp', transport: 'stdio', own: false }, { name: 'howdah', transport: 'stdio', own: true }], live: true },
  ...overrides,
});

const form = {
  title: 'Zorbl form',
  description: 'Fill the zorbl',
  asksForSecret: true,
  omitted: 2,
  fields: [
    { name: 'vers', label: 'Quuxversion', description: 'A quux tag', required: true, secret: false, kind: 'text' as const, pattern: '^q' },
    { name: 'reps', label: 'Blargcount', required: false, secret: false, kind: 'number' as const, integer: true, minimum: 1, maximum: 9 },
    { name: 'zone', label: 'Fnordzone', required: true, secret: false, kind: 'select' as const, options: [{ value: 'a', label: 'Fnord A' }, { value: 'b', label: 'Fnord B' }] },
    { name: 'many', label: 'Gloopmany', required: false, secret: false, kind: 'multiselect' as const, options: [{ value: 'x', label: 'Gloop X' }] },
    { name: 'flag', label: 'Snarfflag', required: false, secret: false, kind: 'boolean' as const },
    { name: 'odd', label: 'Wibbleodd', required: false, secret: false, kind: 'unknown' as const, type: 'wibble', raw: '{"type":"wibble"}' },
  ],
};

const entries: EntryView[] = [
  { kind: 'user', id: 1, text: 'zorbl the quux please', attachments: [{ type: 'resource_link', uri: 'file:///wsquux/src/quux.ts', name: 'quux.ts' }], branch: { index: 1, total: 2 } },
  { kind: 'thought', id: 2, text: 'pondering zorbl' },
  { kind: 'agent', id: 3, text: 'Zorbl **quux** with `blarg`:\n\n```ts\nconst zorbl = 1;\n```\n\nSee [fnord](https://fnord.invalid/x).', blocks: [] },
  {
    kind: 'tool',
    id: 4,
    tool: {
      toolCallId: 't1',
      title: 'Edit quux.ts',
      kind: 'edit',
      status: 'completed',
      locations: [{ path: '/wsquux/src/quux.ts', line: 3 }],
      content: [{ type: 'diff', path: '/wsquux/src/quux.ts', added: 3, removed: 1, newFile: false }, { type: 'diff', path: '/wsquux/src/new.ts', added: 2, removed: 0, newFile: true }],
      answer: { name: 'Zallow once', kind: 'allow_once' },
    },
  },
  {
    kind: 'tool',
    id: 5,
    tool: {
      toolCallId: 't2',
      title: 'Run zorbl',
      kind: 'execute',
      status: 'in_progress',
      command: 'zorbl --quux',
      locations: [],
      content: [{ type: 'terminal', terminalId: 'term1', output: 'quuxing\nblarged\n', truncated: true, running: true, openable: true }],
    },
  },
  {
    kind: 'tool',
    id: 6,
    tool: {
      toolCallId: 't3',
      title: 'Run fnord',
      kind: 'execute',
      status: 'failed',
      command: 'fnord',
      locations: [],
      content: [{ type: 'terminal', terminalId: 'term2', output: 'fnord failed', truncated: false, exit: { code: 2, signal: null } }, { type: 'content', content: { type: 'text', text: 'fnord said no' } }, { type: 'unknown', raw: '{"wibble":1}' }],
      rawInput: '{"fnord":true}',
      rawOutput: '{"ok":false}',
    },
  },
  {
    kind: 'tool',
    id: 7,
    tool: {
      toolCallId: 't4',
      title: 'Write blarg.ts',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: '/wsquux/blarg.ts' }],
      content: [{ type: 'diff', path: '/wsquux/blarg.ts', added: 1, removed: 1, newFile: false }],
      permission: { requestId: 1, options: [{ optionId: 'y', name: 'Zallow once', kind: 'allow_once' }, { optionId: 'n', name: 'Zreject', kind: 'reject_once' }] },
    },
  },
  { kind: 'tool', id: 8, tool: { toolCallId: 't5', title: 'Read gloop', kind: 'read', status: 'cancelled', locations: [], content: [], answer: 'cancelled' } },
  { kind: 'notice', id: 9, severity: 'warning', title: 'Quux notice', description: 'the quux is odd' },
  { kind: 'unknown', id: 10, label: 'wibble_update', raw: '{"sessionUpdate":"wibble_update"}' },
  { kind: 'turn-end', id: 11, stopReason: 'max_tokens', unrecorded: [{ path: '/wsquux/big.bin', why: 'zorbl too big' }], tokens: { input: 1200, output: 340, thought: 50, cachedRead: 800 } },
  { kind: 'error', id: 12, message: 'Zorbl broke', detail: 'quux trace', retryable: true },
  { kind: 'compaction', id: 13, status: 'completed', text: 'zorbl summary text', blocks: [] },
  { kind: 'elicitation', id: 14, elicitation: { key: 14, mode: 'form', message: 'Which quux?', toolTitle: 'Deploy quux', form, status: 'waiting' } },
  { kind: 'elicitation', id: 15, elicitation: { key: 15, mode: 'url', message: 'Open the quux portal', url: 'https://xn--80ak6aa92e.com/login', status: 'waiting' } },
  { kind: 'elicitation', id: 16, elicitation: { key: 16, mode: 'form', message: 'Which blarg?', status: 'accepted', answered: [{ label: 'Blargcount', value: '3' }] } },
  { kind: 'elicitation', id: 17, elicitation: { key: 17, mode: 'form', message: 'Which fnord?', status: 'declined' } },
  { kind: 'elicitation', id: 18, elicitation: { key: 18, mode: 'form', message: 'Which gloop?', status: 'cancelled', endedBy: 'agent' } },
  { kind: 'elicitation', id: 19, elicitation: { key: 19, mode: 'form', message: 'Which snarf?', status: 'completed', endedBy: 'agent' } },
  { kind: 'elicitation', id: 20, elicitation: { key: 20, mode: 'form', message: 'Which wibble?', status: 'wibbled' } },
];

const full: SnapshotMessage = {
  type: 'snapshot',
  epoch: 1,
  header: header(),
  entries,
  plan: [
    { content: 'Zorbl first', priority: 'high', status: 'completed' },
    { content: 'Quux next', priority: 'medium', status: 'in_progress' },
    { content: 'Blarg last', priority: 'low', status: 'pending' },
  ],
  commands: [{ name: 'zorbl', description: 'Zorbls the quux', hint: 'quux name' }],
  turn: 'running',
  queue: [{ id: 1, text: 'then fnord the blarg', attachments: ['gloop.ts'] }],
};

const gates: GateView[] = [
  { kind: 'signIn', agentName: 'Zorbl Agent', message: 'Zorbl wants a login', choices: [{ id: 'c1', label: 'Zorbl login', description: 'via quux' }] },
  { kind: 'startWaiting', id: 'w1', agentName: 'Zorbl Agent', step: 'initialize', message: 'Zorbl is slow' },
  { kind: 'untrusted', message: 'Quux is not trusted' },
  { kind: 'startError', id: 'e1', title: 'Zorbl failed', agentName: 'Zorbl Agent', message: 'quux exploded', agentMessage: 'blarg error', stderr: ['fnord line'], actions: ['retry', 'signIn', 'showLog', 'editSettings', 'dismiss'] },
  {
    kind: 'chooseAgent',
    agents: [
      { id: 'a1', name: 'Zorbl Agent', installed: true, detail: 'zorbl on path', version: '9.8.7', canInstall: false, hasDocs: true, signIn: 'signed-in', canSignIn: true },
      { id: 'a2', name: 'Quux Agent', installed: false, detail: 'quux from registry', description: 'The quux one', license: 'QPL', distribution: 'npx', canInstall: true, updateTo: '2.0.0', hasDocs: false, signIn: 'signed-out', canSignIn: true },
      { id: 'a3', name: 'Blarg Agent', installed: true, detail: 'blarg', canInstall: false, hasDocs: false, signIn: 'unknown', updateTo: '3.0.0' },
    ],
  },
];

function page(): { app: ChatApp; body: HTMLElement } {
  const body = pageWindow.document.body as unknown as HTMLElement;
  body.replaceChildren();
  return { app: new ChatApp(body, new HostChannel()), body };
}

function show(app: ChatApp, ...messages: HostMessage[]): void {
  for (const m of messages) app.receive(m);
  app.render();
}

describe('the chat page in a pseudo-locale', () => {
  it('finds a stray word, and accepts translated text and the host’s data', () => {
    assert.deepEqual(strayWords(`${PSEUDO_OPEN}Ŝḗḗƞḓ zorbl${PSEUDO_CLOSE} quux 42`, 'zorbl quux'), []);
    assert.deepEqual(strayWords('Retry quux', 'quux'), ['Retry']);
    assert.deepEqual(strayWords(`${PSEUDO_OPEN}Ŝḗḗƞḓ ${PSEUDO_OPEN}ƒǿǿ${PSEUDO_CLOSE}${PSEUDO_CLOSE} Send`, ''), ['Send']);
  });

  for (const status of ['none', 'starting', 'restarting', 'exited', 'ready'] as const) {
    it(`the empty page (${status}) is all translated`, () => {
      const { app, body } = page();
      const messages: HostMessage[] = [{ type: 'snapshot', epoch: 1, header: header({ status, ...(status === 'none' ? { agentName: undefined, sessionKey: undefined, sessions: [] } : {}) }), entries: [], plan: [], commands: [], turn: 'idle', queue: [] }];
      show(app, ...messages);
      assert.deepEqual(untranslated(body, messages), []);
    });
  }

  it('a conversation with every kind of entry, a plan, a queue and usage is all translated', () => {
    const { app, body } = page();
    const messages: HostMessage[] = [full, { type: 'unsaved', notice: { id: 1, files: ['/wsquux/a.ts', '/wsquux/b.ts', '/wsquux/c.ts', '/wsquux/d.ts', '/wsquux/e.ts', '/wsquux/f.ts'] } }];
    show(app, ...messages);
    assert.ok(body.querySelectorAll('.entry').length >= 10, 'the entries rendered');
    assert.deepEqual(untranslated(body, messages), []);
  });

  it('what the agent may do, before it starts and as given, is all translated', () => {
    for (const allowances of [
      { folders: ['/wsquux'], read: false, write: 'off', terminal: 'off', commandRules: { deny: 0, ask: 0 }, mcpServers: [], live: false },
      { folders: ['/wsquux'], read: true, write: 'apply', terminal: 'allow', commandRules: { deny: 1, ask: 0 }, mcpServers: [{ name: 'zorblmcp', transport: 'http', own: false }], live: true },
    ]) {
      const { app, body } = page();
      const messages: HostMessage[] = [{ type: 'snapshot', epoch: 1, header: header({ allowances }), entries: [], plan: [], commands: [], turn: 'idle', queue: [] }];
      show(app, ...messages);
      assert.ok(body.querySelector('.allowances, [class*="allowance"]'), 'the summary rendered');
      assert.deepEqual(untranslated(body, messages), [], JSON.stringify(allowances));
    }
  });

  it('an idle conversation and a cancelling one are all translated', () => {
    for (const turn of ['idle', 'cancelling'] as const) {
      const { app, body } = page();
      const messages: HostMessage[] = [{ ...full, turn }];
      show(app, ...messages);
      assert.deepEqual(untranslated(body, messages), [], turn);
    }
  });

  for (const gate of gates) {
    it(`the ${gate.kind} banner is all translated`, () => {
      const { app, body } = page();
      const messages: HostMessage[] = [{ type: 'snapshot', epoch: 1, header: header({ status: 'starting' }), entries: [], plan: [], commands: [], turn: 'idle', queue: [] }, { type: 'gate', gate }];
      show(app, ...messages);
      assert.ok(body.querySelector('.gate, [class*="gate"]'), 'the banner rendered');
      assert.deepEqual(untranslated(body, messages), []);
    });
  }
});
