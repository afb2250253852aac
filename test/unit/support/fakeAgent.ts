import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentConnection } from '../../../src/acp/agentConnection';
import { buildClientCapabilities, type CapabilitySettings } from '../../../src/acp/capabilities';
import type { ClientHandlers } from '../../../src/acp/clientHandlers';
import type { SessionNotification } from '../../../src/acp/schema/sessionUpdate';

/** The repository root, found from the bundled test's location (tests run from out/test/unit/…). */
export const repoRoot = ((): string => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'src'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
})();
export const fakeAgentPath = path.join(repoRoot, 'fixtures', 'fake-agent', 'agent.js');

export const allCapabilities: CapabilitySettings = { readFiles: true, writeFiles: 'apply', terminal: 'allow', terminalAuth: true };

export interface FakeAgentRun {
  connection: AgentConnection;
  updates: SessionNotification[];
  stderr: string[];
  cwd: string;
  /** Messages the agent logged (FAKE_AGENT_LOG): what it received and sent. */
  agentLog(): { dir: 'in' | 'out'; msg: Record<string, unknown> }[];
}

/** Starts the fake agent with a scenario over real stdio, in a fresh temporary workspace. */
export function startFakeAgent(
  scenario: string,
  handlers: Partial<ClientHandlers> = {},
  options: { capabilities?: CapabilitySettings; env?: Record<string, string> } = {},
): FakeAgentRun {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-unit-'));
  const logFile = path.join(cwd, '.agent-log.jsonl');
  const updates: SessionNotification[] = [];
  const stderr: string[] = [];
  const connection = new AgentConnection(
    { command: process.execPath, args: [fakeAgentPath, scenario], cwd, env: { FAKE_AGENT_LOG: logFile, ...options.env } },
    {
      name: 'Fake Agent',
      clientInfo: { name: 'howdah-tests', version: '0.0.0' },
      capabilities: buildClientCapabilities(options.capabilities ?? allCapabilities),
      stderr: (line) => stderr.push(line),
      handlers: {
        sessionUpdate: (n) => updates.push(n),
        requestPermission: async () => ({ outcome: 'cancelled' }),
        ...handlers,
      },
    },
  );
  return {
    connection,
    updates,
    stderr,
    cwd,
    agentLog: () =>
      fs.existsSync(logFile)
        ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
        : [],
  };
}

/** Starts, initializes and opens a session. */
export async function openSession(run: FakeAgentRun): Promise<string> {
  await run.connection.start();
  const result = await run.connection.acp.call('newSession', { cwd: run.cwd, mcpServers: [] });
  return result.sessionId;
}

export function textOf(updates: SessionNotification[], kind = 'agent_message_chunk'): string {
  return updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === kind)
    .map((u) => ('content' in u && (u.content as { type: string }).type === 'text' ? (u.content as { text: string }).text : ''))
    .join('');
}

/** Whether a process runs; a zombie (dead, not yet reaped by whoever adopted it) counts as dead. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Polls `check` until it holds or `ms` passed. */
export async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Fake agents started in a suite, stopped after each test: call in a `describe` body, then `start(...)` in tests.
 */
export function fakeAgentsPerTest(): (...args: Parameters<typeof startFakeAgent>) => FakeAgentRun {
  const runs: FakeAgentRun[] = [];
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((r) => r.connection.stop()));
  });
  return (...args) => {
    const run = startFakeAgent(...args);
    runs.push(run);
    return run;
  };
}
