/**
 * Issue 8's protocol fuzzer, shared by `test/unit/fuzz/protocolFuzz.test.ts` and `npm run bench fuzz`. A seeded PRNG
 * generates and mutates agent → client lines (valid-looking ACP, wrong types, invalid JSON, deep nesting, huge values,
 * NUL and lone surrogates, reused and unknown ids, stray responses, bogus permission requests) and feeds them to an
 * AcpConnection over in-memory streams, wired to a Session as the extension wires them. An oracle predicts, per line,
 * what JSON-RPC requires of the answer (same id, id null, or none) and the run checks it, plus that nothing threw, no
 * promise was left rejected unhandled and the session state stayed consistent.
 */
import { PassThrough } from 'node:stream';
import { buildClientCapabilities } from '../../../src/acp/capabilities';
import { AcpConnection } from '../../../src/acp/connection';
import { ProtocolRecorder } from '../../../src/acp/protocolRecorder';
import type { RequestPermissionParams } from '../../../src/acp/schema/clientMethods';
import { formatTrace, type TraceLevel } from '../../../src/acp/trace';
import { serializeSession } from '../../../src/session/persistence';
import { Session } from '../../../src/session/session';
import { prng } from './random';

export { prng };

export interface FuzzOptions {
  seed: number;
  messages: number;
  /** Lines fed per macrotask turn (answers and handlers run in between). */
  batch?: number;
  /** The protocol log's level, as the extension's trace callback formats it ('verbose' stringifies every message). */
  trace?: TraceLevel;
  /** Probability of a huge (≥ 1 MB) value or 10,000-level nesting in a generated message. */
  hugeRate?: number;
}

export interface FuzzReport {
  seed: number;
  messages: number;
  bytes: number;
  ms: number;
  /** Expected-answer mismatches, exceptions, unhandled rejections, state inconsistencies: each one a bug. */
  findings: string[];
  counts: Record<string, number>;
  warnings: number;
  entries: number;
  toolCalls: number;
  turnsRun: number;
  /** Characters of formatted protocol trace. */
  traced: number;
}

const SESSION = 'fuzz-session';
const UPDATE_KINDS = [
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'no_such_kind',
  '',
];
const CLIENT_METHODS = [
  'session/request_permission',
  'fs/read_text_file',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'terminal/kill',
  'terminal/release',
  'terminal/wait_for_exit',
  'session/update',
  'elicitation/create',
  '_ext/thing',
  'no/such/method',
  '__proto__',
  'constructor',
  '',
  '$/cancel_request',
];

type Rand = () => number;

class Gen {
  constructor(
    private readonly r: Rand,
    private readonly hugeRate: number,
  ) {}

  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.r() < p;
  }

  /** A string that is sometimes hostile: NUL, lone surrogates, control characters, RTL marks, long. */
  str(): string {
    switch (this.int(10)) {
      case 0:
        return '';
      case 1:
        return 'a\u0000b\u0000';
      case 2:
        return '\ud800 lone \udfff';
      case 3:
        return '\u202e\u0007\u001b[31m\r\t';
      case 4:
        return 'x'.repeat(this.int(5000));
      case 5:
        return this.chance(this.hugeRate) ? 'h'.repeat(1_000_000 + this.int(1000)) : 'tool-' + this.int(20);
      default:
        return 'tc-' + this.int(30);
    }
  }

  /** Any JSON value, of any type, sometimes big or deep. */
  value(depth = 0): unknown {
    switch (this.int(depth > 3 ? 7 : 10)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 42]);
      case 3:
      case 4:
        return this.str();
      case 5:
        return this.pick(['tool_call', 'text', 'selected', 'cancelled', 'allow_once', 'reject_once', 'diff', 'terminal']);
      case 6:
        return undefined;
      case 7:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case 8:
        return this.chance(this.hugeRate) ? this.deep(10_000) : Object.fromEntries(Array.from({ length: this.int(4) }, () => [this.str().slice(0, 20), this.value(depth + 1)]));
      default:
        return this.chance(this.hugeRate) ? Array.from({ length: 100_000 }, (_, i) => i) : { type: 'text', text: this.str() };
    }
  }

  /** A marker that `stringify` expands to `levels` of nesting (JSON.stringify itself overflows the stack there). */
  deep(levels: number): unknown {
    return `@@deep:${levels}:${this.chance(0.5) ? 'a' : 'o'}@@`;
  }

  /** A content block, valid or not. */
  content(): unknown {
    return this.pick([
      () => ({ type: 'text', text: this.str() }),
      () => ({ type: 'image', data: this.str(), mimeType: this.value() }),
      () => ({ type: 'resource_link', uri: this.value(), name: this.value() }),
      () => ({ type: 'weird', x: this.value() }),
      () => this.value(),
      () => ({ type: 'text', text: this.value() }),
    ])();
  }

  toolCallFields(): Record<string, unknown> {
    const f: Record<string, unknown> = { toolCallId: this.chance(0.9) ? 'tc-' + this.int(30) : this.value() };
    if (this.chance(0.6)) f.title = this.chance(0.8) ? this.str() : this.value();
    if (this.chance(0.5)) f.kind = this.pick(['read', 'edit', 'execute', 'bogus', 7, null]);
    if (this.chance(0.6)) f.status = this.pick(['pending', 'in_progress', 'completed', 'failed', 'weird', null, 3]);
    if (this.chance(0.4))
      f.content = this.chance(0.8)
        ? Array.from({ length: this.int(3) }, () =>
            this.pick([
              () => ({ type: 'content', content: this.content() }),
              () => ({ type: 'diff', path: this.value(), oldText: this.value(), newText: this.value() }),
              () => ({ type: 'terminal', terminalId: this.value() }),
              () => this.value(),
            ])(),
          )
        : this.value();
    if (this.chance(0.3)) f.locations = this.chance(0.7) ? [{ path: this.str(), line: this.value() }] : this.value();
    if (this.chance(0.3)) f.rawInput = this.value();
    if (this.chance(0.2)) f.rawOutput = this.value();
    if (this.chance(0.1)) f._meta = this.value();
    return f;
  }

  update(): unknown {
    const kind = this.pick(UPDATE_KINDS);
    const u: Record<string, unknown> = { sessionUpdate: this.chance(0.95) ? kind : this.value() };
    switch (kind) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        u.content = this.content();
        if (this.chance(0.3)) u.messageId = this.chance(0.7) ? 'm-' + this.int(5) : this.value();
        break;
      case 'tool_call':
      case 'tool_call_update':
        Object.assign(u, this.toolCallFields());
        break;
      case 'plan':
        u.entries = this.chance(0.7) ? [{ content: this.str(), priority: this.value(), status: this.value() }] : this.value();
        break;
      case 'available_commands_update':
        u.availableCommands = this.chance(0.7) ? [{ name: this.str(), description: this.value() }] : this.value();
        break;
      case 'current_mode_update':
        u.currentModeId = this.value();
        break;
      case 'config_option_update':
        u.configOptions = this.chance(0.5)
          ? [{ id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: this.value(), options: [{ value: 'a', name: 'A' }] }]
          : this.value();
        break;
      case 'session_info_update':
        u.title = this.value();
        u.updatedAt = this.value();
        break;
      case 'usage_update':
        u.used = this.value();
        u.size = this.value();
        u.cost = this.value();
        break;
      case 'notice':
        u.severity = this.value();
        u.title = this.value();
        break;
      default:
        u.payload = this.value();
    }
    return u;
  }

  permission(): unknown {
    const options = this.chance(0.7)
      ? Array.from({ length: this.int(4) }, (_, i) =>
          this.chance(0.8)
            ? { optionId: this.chance(0.8) ? 'o' + i : this.value(), name: this.value(), kind: this.pick(['allow_once', 'reject_once', 'allow_always', 'bogus', 5]) }
            : this.value(),
        )
      : this.value();
    return { sessionId: this.chance(0.9) ? SESSION : this.value(), toolCall: this.chance(0.8) ? this.toolCallFields() : this.value(), options };
  }

  params(method: string): unknown {
    switch (method) {
      case 'session/request_permission':
        return this.permission();
      case 'session/update':
        return { sessionId: this.chance(0.9) ? SESSION : this.value(), update: this.update() };
      case 'fs/read_text_file':
        return { sessionId: SESSION, path: this.value(), line: this.value(), limit: this.value() };
      case 'fs/write_text_file':
        return { sessionId: SESSION, path: this.value(), content: this.value() };
      case '$/cancel_request':
        return { requestId: this.value() };
      default:
        return this.chance(0.5) ? { sessionId: SESSION, terminalId: this.value() } : this.value();
    }
  }
}

/** What JSON-RPC requires in answer to one line. */
type Expect = { kind: 'none' } | { kind: 'id'; id: number | string } | { kind: 'null' };

/** The oracle: JSON-RPC 2.0's rules for one incoming line (ACP has no batches). */
function expectFor(line: string): Expect {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: 'null' }; // -32700
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { kind: 'null' }; // -32600
  const m = message as Record<string, unknown>;
  const hasId = typeof m.id === 'number' || typeof m.id === 'string';
  if (typeof m.method === 'string') {
    if (hasId) return { kind: 'id', id: m.id as number | string };
    if (m.id === undefined || m.id === null) return { kind: 'none' }; // a notification
    return { kind: 'null' }; // -32600: an id of the wrong type
  }
  if ('result' in m || 'error' in m) return { kind: 'none' }; // a response: never answered
  return hasId ? { kind: 'id', id: m.id as number | string } : { kind: 'null' };
}

/** JSON.stringify, with `Gen.deep` markers expanded to real nesting. */
function stringify(value: unknown): string {
  return (JSON.stringify(value) ?? 'undefined').replace(/"@@deep:(\d+):([ao])@@"/g, (_, n: string, shape: string) => {
    const levels = Number(n);
    return shape === 'a' ? '['.repeat(levels) + '"bottom"' + ']'.repeat(levels) : '{"a":'.repeat(levels) + '"bottom"' + '}'.repeat(levels);
  });
}

const key = (id: number | string | null) => (id === null ? 'null' : typeof id === 'number' ? `n:${id}` : `s:${id}`);

/**
 * Runs one fuzz campaign. Resolves with the findings; never rejects for something the agent did (an exception out of
 * the layer is itself a finding).
 */
export async function runProtocolFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const r = prng(options.seed);
  const g = new Gen(r, options.hugeRate ?? 0.0005);
  // The handlers draw from their own stream, so the lines generated never depend on when a handler ran.
  const handlerRandom = prng(options.seed ^ 0x5eed);
  const batch = options.batch ?? 200;
  const findings: string[] = [];
  const finding = (text: string) => {
    if (findings.length < 50) findings.push(text);
  };
  const counts: Record<string, number> = {};
  const count = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);

  const unhandled = (reason: unknown) => finding(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
  const uncaught = (error: Error) => finding(`uncaught exception: ${error.stack}`);
  process.on('unhandledRejection', unhandled);
  process.on('uncaughtException', uncaught);

  const toUs = new PassThrough({ highWaterMark: 1 << 20 });
  const fromUs = new PassThrough({ highWaterMark: 1 << 20 });
  let warnings = 0;
  let session: Session | undefined;
  // Wired like agentLauncher: every message goes to the protocol recorder and the formatted trace.
  const capabilities = buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'off', terminalAuth: false });
  const recorder = new ProtocolRecorder(capabilities, 2000);
  const traceLevel = options.trace ?? 'verbose';
  let traced = 0;
  const acp = new AcpConnection(toUs, fromUs, capabilities, {
    sessionUpdate: (n) => {
      if (n.sessionId !== SESSION) return;
      session?.apply(n.update);
    },
    requestPermission: (params: RequestPermissionParams, signal) => {
      if (!session || params.sessionId !== SESSION) return Promise.resolve({ outcome: 'cancelled' });
      return session.requestPermission(params, signal);
    },
    readTextFile: async (params) => {
      if (handlerRandom() < 0.3) throw new Error('no such file: ' + String(params.path).slice(0, 40));
      return { content: 'content' };
    },
    writeTextFile: async () => undefined,
    warning: (warning) => {
      warnings++;
      recorder.warning(warning);
    },
  }, {
    trace: (event) => {
      recorder.trace(event);
      traced += formatTrace(event, traceLevel)?.length ?? 0;
    },
  });
  session = new Session(acp, SESSION, {});

  // Our side: answers (by id), our own requests (to answer with mutated responses).
  const answers = new Map<string, number>();
  const ourRequests: (number | string)[] = [];
  const promptIds: (number | string)[] = [];
  let outRest = '';
  fromUs.on('data', (chunk: Buffer) => {
    const lines = (outRest + chunk.toString('utf8')).split('\n');
    outRest = lines.pop()!;
    for (const text of lines) {
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(text);
      } catch (error) {
        finding(`we wrote invalid JSON: ${(error as Error).message}: ${text.slice(0, 200)}`);
        continue;
      }
      if (m.jsonrpc !== '2.0') finding(`we wrote a message without jsonrpc 2.0: ${text.slice(0, 200)}`);
      if (typeof m.method === 'string') {
        if (m.id !== undefined) ourRequests.push(m.id as number);
        if (m.method === 'session/prompt') promptIds.push(m.id as number);
        continue;
      }
      if (!('result' in m) && !('error' in m)) finding(`we wrote neither request nor response: ${text.slice(0, 200)}`);
      if ('error' in m) {
        const e = m.error as { code?: unknown; message?: unknown };
        if (typeof e?.code !== 'number' || typeof e?.message !== 'string') finding(`malformed error object: ${text.slice(0, 200)}`);
      }
      if (m.id === null) {
        const code = (m.error as { code?: unknown } | undefined)?.code;
        if (code !== -32700 && code !== -32600) finding(`an answer with id null that is not -32700/-32600: ${text.slice(0, 200)}`);
      }
      const k = key(m.id as number | string | null);
      answers.set(k, (answers.get(k) ?? 0) + 1);
    }
  });

  const expected = new Map<string, number>();
  const expectLine = (line: string) => {
    const e = expectFor(line);
    count(`expect-${e.kind}`);
    if (e.kind === 'none') return;
    const k = e.kind === 'null' ? 'null' : key(e.id);
    expected.set(k, (expected.get(k) ?? 0) + 1);
  };

  let turnsRun = 0;
  const turns: Promise<unknown>[] = [];
  let bytes = 0;
  let nextId = 0;
  const idFor = (): unknown => {
    switch (g.int(12)) {
      case 0:
        return nextId > 0 ? nextId - 1 : 0; // reused (maybe still in flight)
      case 1:
        return 's' + g.str().slice(0, 30);
      case 2:
        return -1;
      case 3:
        return 1.5;
      default:
        return ++nextId + 1_000_000; // never one of ours
    }
  };

  /** One line (without its newline) of what a hostile agent might write. */
  const nextLine = (): string => {
    const choice = g.int(100);
    if (choice < 40) {
      count('update');
      return stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: g.update() } });
    }
    if (choice < 52) {
      count('permission');
      return stringify({ jsonrpc: '2.0', id: idFor(), method: 'session/request_permission', params: g.permission() });
    }
    if (choice < 62) {
      count('request');
      const method = g.chance(0.9) ? g.pick(CLIENT_METHODS) : g.str();
      const m: Record<string, unknown> = { jsonrpc: g.chance(0.95) ? '2.0' : g.value(), method, params: g.params(method) };
      const idKind = g.int(10);
      if (idKind < 7) m.id = idFor();
      else if (idKind === 7) m.id = null;
      else if (idKind === 8) m.id = g.value();
      return stringify(m);
    }
    if (choice < 70) {
      count('response');
      // A response: to one of our requests (maybe again), or to nothing.
      const id = promptIds.length && g.chance(0.3) ? promptIds[promptIds.length - 1] : ourRequests.length && g.chance(0.6) ? ourRequests[g.int(ourRequests.length)] : g.chance(0.5) ? idFor() : g.value();
      const m: Record<string, unknown> = { jsonrpc: '2.0', id };
      const kind = g.int(6);
      if (kind === 0) m.result = { stopReason: g.pick(['end_turn', 'cancelled', 'max_tokens', 'weird']) };
      else if (kind === 1) m.result = g.value();
      else if (kind === 2) m.error = { code: g.value(), message: g.value(), data: g.value() };
      else if (kind === 3) m.error = g.value();
      else if (kind === 4) {
        m.result = g.value();
        m.error = g.value();
      } else m.result = g.chance(0.5) ? g.deep(g.chance(0.3) ? 10_000 : 500) : { stopReason: 'end_turn', _meta: g.deep(g.chance(0.3) ? 10_000 : 500) };
      return stringify(m);
    }
    if (choice < 76) {
      count('no-method');
      const m: Record<string, unknown> = { jsonrpc: '2.0', params: g.value() };
      if (g.chance(0.7)) m.id = idFor();
      if (g.chance(0.3)) m.method = g.value();
      return stringify(m);
    }
    if (choice < 86) {
      count('invalid-json');
      return g.pick([
        () => '{',
        () => '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"' + SESSION + '","update":{"sessionUpdate":"agent_message_chunk"',
        () => 'not json at all',
        () => '\u0000\u0000\u0000',
        () => '{"jsonrpc":"2.0","id":1,"method":"x",}',
        () => "{'single':'quotes'}",
        () => '   ',
        () => '\ud800',
        () => 'NaN',
        () => '{"a":' + '['.repeat(5000),
        () => '{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":' + '{"a":'.repeat(200) + 'oops',
      ])();
    }
    if (choice < 95) {
      count('valid-non-object');
      return g.pick([() => '[]', () => '[{"jsonrpc":"2.0","id":1,"method":"x"}]', () => '42', () => 'null', () => '"str"', () => 'true', () => stringify(g.value())])();
    }
    if (choice < 96) {
      count('deep');
      const levels = g.chance(0.15) ? 10_000 : 100 + g.int(1000);
      const m: Record<string, unknown> = { jsonrpc: '2.0', method: g.pick(CLIENT_METHODS) };
      if (g.chance(0.6)) m.id = idFor();
      const text = stringify(m);
      return text.slice(0, -1) + ',"params":' + '['.repeat(levels) + ']'.repeat(levels) + '}';
    }
    count('mutated');
    // A valid message, then bytes flipped, cut or duplicated.
    let text = stringify({ jsonrpc: '2.0', id: idFor(), method: g.pick(CLIENT_METHODS), params: g.params('session/update') });
    for (let i = g.int(4); i >= 0; i--) {
      const at = g.int(text.length);
      const op = g.int(3);
      if (op === 0) text = text.slice(0, at) + String.fromCharCode(g.int(0x10000)) + text.slice(at + 1);
      else if (op === 1) text = text.slice(0, at) + text.slice(at + 1 + g.int(5));
      else text = text.slice(0, at) + text.slice(at, at + 10) + text.slice(at);
    }
    return text;
  };

  const started = Date.now();
  const lineTerminators = /[\n\r]/g;
  let sent = 0;
  while (sent < options.messages) {
    const chunk: string[] = [];
    for (let i = 0; i < batch && sent < options.messages; i++, sent++) {
      // The splitter sees "\n"-separated lines with a trailing "\r" stripped: keep each generated line one line.
      let line = nextLine().replace(lineTerminators, ' ');
      if (line.trim() === '' && line.length > 0) line = line + 'x';
      if (line.length === 0) line = '{}';
      // What reaches the layer is the UTF-8 round trip (a lone surrogate becomes U+FFFD).
      const decoded = Buffer.from(line, 'utf8').toString('utf8');
      expectLine(decoded);
      chunk.push(line);
      // Start a turn now and then so responses and cancels hit a real session/prompt.
      if (session.state.turn === 'idle' && g.chance(0.01)) {
        turnsRun++;
        const s = session;
        const afterTurn = (error?: unknown) => {
          if (error instanceof RangeError || (error instanceof Error && /call stack/.test(error.message))) finding(`a turn failed with ${error.stack}`);
          if (s.state.turn !== 'idle') finding(`turn left ${s.state.turn} after session/prompt settled`);
          const last = s.state.entries[s.state.entries.length - 1];
          if (last?.kind !== 'turn-end' && last?.kind !== 'error') finding(`a turn ended without a turn-end or error entry (last: ${last?.kind})`);
        };
        turns.push(session.prompt([{ type: 'text', text: 'go ' + sent }]).then(() => afterTurn(), afterTurn));
      } else if (session.state.turn === 'running' && g.chance(0.001)) {
        void session.cancel().catch(() => undefined);
      }
    }
    const data = Buffer.from(chunk.join('\n') + '\n', 'utf8');
    bytes += data.length;
    // Split the batch at a random byte so lines (and characters) cross chunk boundaries.
    const cut = g.int(data.length);
    try {
      toUs.write(data.subarray(0, cut));
      toUs.write(data.subarray(cut));
    } catch (error) {
      finding(`write threw: ${(error as Error).stack}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  // Settle: answer every prompt still waiting on the user, let the queues drain.
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (session.state.turn === 'running') await session.cancel().catch(() => undefined);
  session.dispose();
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const ms = Date.now() - started;

  for (const [k, n] of expected) {
    const got = answers.get(k) ?? 0;
    if (got !== n) finding(`id ${k}: expected ${n} answer(s), got ${got}`);
  }
  for (const [k, n] of answers) if (!expected.has(k)) finding(`id ${k}: ${n} answer(s) to something that needed none`);

  // Session state consistency.
  const ids = new Set<number>();
  const toolEntries = new Map<string, number>();
  for (const entry of session.state.entries) {
    if (typeof entry.id !== 'number' || !Number.isFinite(entry.id)) finding(`entry without a numeric id: ${entry.kind}`);
    if (ids.has(entry.id)) finding(`duplicate entry id ${entry.id}`);
    ids.add(entry.id);
    if (entry.kind === 'tool') {
      toolEntries.set(entry.toolCallId, (toolEntries.get(entry.toolCallId) ?? 0) + 1);
      if (!session.state.toolCalls.has(entry.toolCallId)) finding(`tool entry ${entry.toolCallId} without a tool call`);
    }
    if (entry.kind === 'message' && typeof entry.text !== 'string') finding(`message entry ${entry.id} whose text is ${typeof entry.text}`);
  }
  for (const [id, call] of session.state.toolCalls) {
    if (toolEntries.get(id) !== 1) finding(`tool call ${id} has ${toolEntries.get(id) ?? 0} entries`);
    if (call.toolCallId !== id) finding(`tool call keyed ${id} has id ${call.toolCallId}`);
    if (typeof call.title !== 'string') finding(`tool call ${id} has a ${typeof call.title} title`);
    if (!Array.isArray(call.content)) finding(`tool call ${id} content is not an array`);
    if (call.permission) finding(`tool call ${id} still waits on a permission after dispose`);
  }
  if (session.state.turn !== 'idle') {
    // The grace timer ends an ignored cancel; wait for it once.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const turn: string = session.state.turn; // changed by the timer, which narrowing cannot see
    if (turn !== 'idle') finding(`turn stuck in ${turn}`);
  }
  await Promise.all(turns);
  try {
    const saved = serializeSession(session.state, { key: 'k', agentId: 'fuzz', agentName: 'Fuzz', sessionId: SESSION, cwd: '/' });
    // The agent's notices are live only, not saved (persistence.ts).
    const kept = session.state.entries.filter((entry) => !(entry.kind === 'notice' && entry.live)).length;
    if (saved.entries.length !== kept) finding(`saved ${saved.entries.length} of ${kept} entries`);
  } catch (error) {
    finding(`saving the session threw: ${(error as Error).stack}`);
  }
  try {
    recorder.timeline();
  } catch (error) {
    finding(`the protocol log's timeline threw: ${(error as Error).stack}`);
  }
  if (session.waitingPermissionCount !== 0) finding(`${session.waitingPermissionCount} permission requests still waiting`);

  process.off('unhandledRejection', unhandled);
  process.off('uncaughtException', uncaught);
  toUs.end();
  return {
    seed: options.seed,
    messages: sent,
    bytes,
    ms,
    findings,
    counts,
    warnings,
    entries: session.state.entries.length,
    toolCalls: session.state.toolCalls.size,
    turnsRun,
    traced,
  };
}
