// Every state the panel can be in, each as the host messages that put a fresh page there: the accessibility sweep
// and the theme checks run over all of them. A new entry kind or panel state gets a line here.
import { agent, error, field, notice, patch, permission, question, queued, releaseForm, snapshot, thought, tool, turnEnd, unknown, user } from './fixtures.mjs';
import { send } from './chatPage.mjs';

const gate = (g) => ({ type: 'gate', gate: g });
const form = releaseForm;
const compaction = (id, status, text = '', err) => ({ kind: 'compaction', id, status, text, blocks: [], ...(err ? { error: err } : {}) });

const MARKDOWN = [
  '# Greeting helper', '', 'It **trims** the name and falls back to `world`; see the [Node.js docs](https://nodejs.org/api/).', '',
  '- trims the name', '- falls back to world', '', '> A quote from the docs.', '', '| a | b |', '|---|---|', '| 1 | 2 |', '',
  '```js', "function greet(name = 'world') {", '  return `Hello, ${name.trim()}!`;', '}', '```',
].join('\n');

const RICH_HEAD = {
  title: 'Fix the tests',
  sessions: [{ key: 's1', label: 'Fake Agent (s1)' }, { key: 's2', label: 'Other (s2)' }],
  modes: { current: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code' }] },
  configOptions: [
    { type: 'select', id: 'model', name: 'Model', category: 'model', current: 'm1', groups: [{ options: [{ value: 'm1', name: 'Model One' }, { value: 'm2', name: 'Model Two' }] }] },
    { type: 'boolean', id: 'fast', name: 'Fast', current: false },
  ],
  usage: { used: 150_000, size: 200_000, cost: { amount: 0.12, currency: 'USD' } },
};

const TOOLS = [
  tool(10, { title: 'Read a.ts', kind: 'read', locations: [{ path: '/w/a.ts', line: 3 }] }),
  tool(11, { title: 'Edit a.ts', kind: 'edit', status: 'completed', locations: [{ path: '/w/a.ts' }],
    content: [{ type: 'diff', path: '/w/a.ts', added: 2, removed: 1, newFile: false }], rawInput: '{\n  "file": "a.ts"\n}' }),
  tool(12, { title: 'Run tests', kind: 'execute', status: 'completed', command: 'npm test',
    content: [{ type: 'terminal', terminalId: 't1', output: '\u001b[32m1 passing\u001b[0m\r\ndone\n', truncated: false, exit: { code: 0, signal: null }, openable: true }] }),
  tool(13, { title: 'Fetch', kind: 'fetch', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'ENOTFOUND example.invalid' } }] }),
  tool(14, { title: 'Search', kind: 'search', status: 'in_progress' }),
  tool(15, { title: 'Think', kind: 'think', status: 'pending' }),
  tool(16, { title: 'Delete old.ts', kind: 'delete', status: 'completed', locations: [{ path: '/w/old.ts' }] }),
  tool(17, { title: 'Move', kind: 'move', status: 'completed' }),
  tool(18, { title: 'Vendor tool', kind: '_vendor_thing', status: '_vendor_status' }),
];

/** name → async (page) => void: puts the page in that state. */
export const STATES = {
  'empty (no session)': (page) => send(page, snapshot({ head: { status: 'none', agentName: undefined, sessionKey: undefined, sessions: [] } })),
  'ready, nothing said yet': (page) => send(page, snapshot()),
  'starting': (page) => send(page, snapshot({ head: { status: 'starting' } })),
  'first run (choose an agent)': async (page) => {
    await send(page, snapshot({ head: { status: 'none', agentName: undefined, sessionKey: undefined, sessions: [] } }));
    await send(page, gate({
      kind: 'chooseAgent',
      agents: [
        { id: 'fake', name: 'Fake', installed: true, detail: '/usr/bin/node agent.js', canInstall: false, hasDocs: false },
        { id: 'codex', name: 'Codex CLI', installed: true, detail: "Installed 1.0.0 in Howdah's storage", version: '1.0.0', distribution: 'binary', canInstall: false, updateTo: '1.1.0', hasDocs: false, signIn: 'signed-out', canSignIn: true },
        { id: 'gemini', name: 'Gemini CLI', installed: false, detail: 'Not installed', description: 'Google’s CLI', version: '0.27.3', license: 'Apache-2.0', distribution: 'npm', canInstall: true, hasDocs: true },
      ],
    }));
  },
  'sign-in': async (page) => {
    await send(page, snapshot({ head: { status: 'starting' } }));
    await send(page, gate({ kind: 'signIn', agentName: 'Codex', message: 'Authentication required', choices: [{ id: 'chatgpt', label: 'Log in with ChatGPT', description: 'Opens a browser' }, { id: 'api-key', label: 'Use OPENAI_API_KEY' }] }));
  },
  'start error': async (page) => {
    await send(page, snapshot({ head: { status: 'none', agentName: undefined, sessionKey: undefined, sessions: [] } }));
    await send(page, gate({ kind: 'startError', id: 'f7', title: 'Fake Broken could not start a session', agentName: 'Fake Broken', message: 'session/new failed (error -32603).',
      agentMessage: 'no model', stderr: ['fake-agent: error: model unavailable'], actions: ['retry', 'signIn', 'showLog', 'editSettings', 'dismiss'] }));
  },
  'untrusted workspace': async (page) => {
    await send(page, snapshot({ head: { status: 'none', agentName: undefined, sessionKey: undefined, sessions: [] } }));
    await send(page, gate({ kind: 'untrusted', message: 'Agents do not start in an untrusted workspace.' }));
  },
  'waiting for a start call': async (page) => {
    await send(page, snapshot({ head: { status: 'starting' } }));
    await send(page, gate({ kind: 'startWaiting', id: 'w1', agentName: 'Fake', step: 'session/new', message: 'Fake has not answered session/new for 30 s.' }));
  },
  'a question while starting': async (page) => {
    await send(page, snapshot({ head: { status: 'starting' } }));
    await send(page, gate({ kind: 'elicitation', agentName: 'Fake', elicitation: { key: 9, mode: 'form', message: 'Which workspace?', status: 'waiting', form } }));
  },
  'streaming': async (page) => {
    const snap = snapshot({ entries: [user(1, 'Explain greet()'), thought(2, 'Reading the code'), agent(3, 'It trims the **name** and')], turn: 'running' });
    await send(page, snap);
    await send(page, patch(snap, { op: 'append', index: 2, offset: 'It trims the **name** and'.length, delta: ' falls back to' }));
  },
  'every entry kind': (page) => send(page, snapshot({
    head: RICH_HEAD,
    entries: [
      user(1, 'Fix the tests', [{ kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts' }]), thought(2, 'pondering *deeply*'), agent(3, MARKDOWN),
      ...TOOLS.map((t, i) => ({ ...t, id: 4 + i })),
      notice(20, 'Mode changed to Code', 'info', 'The agent switched mode.'), notice(21, 'Context nearly full', 'warning'),
      unknown(22, 'vendor/update', '{"x":1}'), turnEnd(23, 'end_turn'),
      { kind: 'turn-end', id: 24, stopReason: 'end_turn', unrecorded: [{ path: '/w/big.bin', why: 'too large' }], tokens: { input: 1200, output: 340, thought: 80, cachedRead: 900 } },
      error(25, 'The agent crashed (exit code 1)', true, 'stderr: boom'),
      { kind: 'user', id: 26, text: 'refused one', attachments: [], refused: true },
      tool(27, { kind: 'execute', title: 'Run make', command: 'make all', status: 'pending', permission: permission() }),
    ],
    plan: [{ content: 'Read the code', priority: 'high', status: 'completed' }, { content: 'Fix it', priority: 'medium', status: 'in_progress' }, { content: 'Test', priority: 'low', status: 'pending' }],
    commands: [{ name: 'review', description: 'Review the code', hint: 'files to review' }],
  })),
  'permission prompt': async (page) => {
    const snap = snapshot({ entries: [agent(1, 'Let me run it.')], turn: 'running' });
    await send(page, snap);
    await send(page, patch(snap, { op: 'entry', index: 1, entry: tool(2, { kind: 'edit', title: 'Edit a.ts', status: 'pending', locations: [{ path: '/w/a.ts' }],
      content: [{ type: 'diff', path: '/w/a.ts', added: 3, removed: 1, newFile: false }, { type: 'diff', path: '/w/new.ts', added: 9, removed: 0, newFile: true }],
      permission: permission([...permission().options, { optionId: 'never', name: 'Always reject', kind: 'reject_always' }]) }) }));
  },
  'elicitation form': async (page) => {
    const snap = snapshot({ entries: [agent(1, 'Deploying.')], turn: 'running' });
    await send(page, snap);
    await send(page, patch(snap, { op: 'entry', index: 1, entry: question(2, { form, toolTitle: 'deploy' }) }));
  },
  'elicitation form with errors and a secret': async (page) => {
    await send(page, snapshot({ entries: [question(1, { form: { ...form, asksForSecret: true, fields: [...form.fields, field('token', 'text', { label: 'API token', secret: true })] } })], turn: 'running' }));
    await page.getByRole('button', { name: 'Submit' }).click();
  },
  'elicitation URL card': (page) => send(page, snapshot({ entries: [question(1, { mode: 'url', url: 'https://user@xn--pple-43d.com/login?next=%2F', message: 'Sign in to continue' })], turn: 'running' })),
  'elicitation answered': (page) => send(page, snapshot({ entries: [question(1, { form, status: 'accepted', answered: [{ label: 'Version', value: 'v1.2.3' }] }), question(2, { form, status: 'declined' }), question(3, { mode: 'url', url: 'https://example.com', status: 'cancelled' })] })),
  'error': (page) => send(page, snapshot({ entries: [user(1, 'go'), error(2, 'session/prompt failed: Internal error', true, 'details'), error(3, 'The agent stopped', false)] })),
  'long transcript': (page) => send(page, snapshot({ entries: Array.from({ length: 90 }, (_, i) => (i % 2 ? agent(i, `Answer ${i} with \`code\``) : user(i, `Question ${i}`))) })),
  'queue': (page) => send(page, snapshot({ entries: [agent(1, 'Working on it…')], turn: 'running', queue: [queued(7, 'first', ['src/a.ts']), queued(9, 'second')] })),
  'plan': (page) => send(page, snapshot({ entries: [agent(1, 'Planning.')], turn: 'running', plan: [{ content: 'Read the code', priority: 'high', status: 'completed' }, { content: 'Fix it', priority: 'medium', status: 'in_progress' }, { content: 'Test', priority: 'low', status: 'pending' }, { content: 'Vendor', priority: '_x', status: '_y' }] })),
  'tool calls': (page) => send(page, snapshot({ entries: TOOLS })),
  'compaction': (page) => send(page, snapshot({ entries: [compaction(1, 'completed', 'We **fixed** the parser.'), compaction(2, 'failed', '', 'timed out'), compaction(3, 'in_progress'), compaction(4, '_vendor_paused')], turn: 'running' })),
  'branches': (page) => send(page, snapshot({ entries: [{ kind: 'user', id: 1, text: 'Edited question', attachments: [], branch: { index: 2, total: 3 } }, agent(2, 'The answer on this branch.'), turnEnd(3, 'end_turn')] })),
  'unsaved notice': async (page) => {
    await send(page, snapshot());
    await send(page, { type: 'unsaved', notice: { id: 4, files: ['src/a.ts', 'README.md'] } });
  },
  'keyboard shortcuts help': async (page) => {
    await send(page, snapshot({ entries: [user(1, 'hi'), agent(2, 'hello')] }));
    await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
  },
};
