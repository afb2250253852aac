// `npm run test:registry`: every agent in the shipped registry snapshot whose `npx` package installs from the npm
// registry here is installed at its pinned version with Howdah's installer (src/agents/registry/installer.ts), started
// with Howdah's connection (src/acp/agentConnection.ts: the process and ACP layer the extension's launcher wraps, with
// the same client info and capabilities) with no credentials, and asked `initialize` and `session/new`. What each did
// goes to test-results/agent-matrix.md and .json. A third-party agent that cannot install or start is a row, and so is
// one that does not answer within 60 s (it is stopped, its stderr kept); a Howdah failure (an exception of ours, an
// unhandled rejection, a protocol warning from our layer, stopping an agent taking past 60 s) fails the run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentConnection } from '../../src/acp/agentConnection';
import { buildClientCapabilities } from '../../src/acp/capabilities';
import { ConnectionClosedError, RpcError } from '../../src/acp/errors';
import { AgentInstaller } from '../../src/agents/registry/installer';
import { InstallError } from '../../src/agents/registry/installErrors';
import { currentPlatform } from '../../src/agents/registry/platform';
import { parseRegistry, type RegistryAgent } from '../../src/agents/registry/registryFormat';
import snapshot from '../../src/agents/registry/snapshot.json';

const REPO = path.resolve(__dirname, '..', '..', '..');
const RESULTS = path.join(REPO, 'test-results');
/** Installs are kept between runs (git-ignored), so a second run only starts agents. */
const STORE = path.join(REPO, '.vscode-test', 'registry-agents');
const STEP_LIMIT_MS = 60_000;

interface Row {
  id: string;
  name: string;
  version: string;
  package: string;
  install: { ok: boolean; seconds: number; error?: string };
  initialize?: { ok: boolean; protocolVersion?: unknown; agentCapabilities?: unknown; authMethods?: unknown; agentInfo?: unknown; error?: string };
  sessionNew?: { outcome: 'session' | 'auth-required' | 'error' | 'exited' | 'no-answer'; sessionId?: string; error?: string; code?: number; stderr?: string[] };
  protocolWarnings: string[];
}

const howdahFailures: string[] = [];
process.on('unhandledRejection', (reason) => howdahFailures.push(`unhandled rejection: ${String(reason)}`));

/** Runs `step`; past the limit it is a hang, which is Howdah's failure (the caller stops the agent). */
async function within<T>(what: string, step: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HangError(`${what} took longer than ${STEP_LIMIT_MS / 1000} s`)), STEP_LIMIT_MS);
  });
  try {
    return await Promise.race([step, limit]);
  } finally {
    clearTimeout(timer);
  }
}
class HangError extends Error {}

const describeError = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 2000);

/** No credentials: a private HOME, and none of the variables agents read keys from. */
function credentialFreeEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|^npm_|^ANTHROPIC|^OPENAI|^GEMINI|^GOOGLE|^GITHUB|^COPILOT|^AWS_|^AZURE/i.test(k)) continue;
    env[k] = v;
  }
  // As root (a container), Claude Code refuses the flag claude-agent-acp passes unless IS_SANDBOX is exactly 1
  // (agents-in-the-wild.md); that is this machine's quirk, not the agent's behaviour without credentials.
  const sandbox: Record<string, string> = process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {};
  return { ...env, ...sandbox, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache') };
}

async function probe(agent: RegistryAgent, installer: AgentInstaller): Promise<Row> {
  const spec = agent.distribution.npx!;
  const row: Row = { id: agent.id, name: agent.name, version: agent.version, package: spec.package, install: { ok: false, seconds: 0 }, protocolWarnings: [] };
  const started = Date.now();
  let installed;
  try {
    installed = await installer.install(agent, { platform: currentPlatform(), signal: new AbortController().signal, npm: 'npm' });
    row.install = { ok: true, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    row.install = { ok: false, seconds: (Date.now() - started) / 1000, error: describeError(error) };
    // A package that does not install here is the agent's row; anything but an InstallError is ours.
    if (!(error instanceof InstallError)) howdahFailures.push(`${agent.id}: install threw ${describeError(error)}`);
    return row;
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `howdah-matrix-${agent.id}-`));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), `howdah-matrix-ws-`));
  fs.mkdirSync(path.join(home, '.config'), { recursive: true });
  const stderr: string[] = [];
  const connection = new AgentConnection(
    { command: installed.executable, args: installed.args, env: { ...credentialFreeEnv(home), ...installed.env }, cwd },
    {
      name: agent.name,
      clientInfo: { name: 'howdah', title: 'Howdah', version: 'registry-matrix' },
      capabilities: buildClientCapabilities({ readFiles: true, writeFiles: 'apply', terminal: 'off', terminalAuth: true }),
      stderr: (line) => {
        stderr.push(line);
        if (stderr.length > 40) stderr.shift();
      },
      handlers: {
        sessionUpdate: () => undefined,
        requestPermission: async () => ({ outcome: 'cancelled' as const }),
        readTextFile: async (p) => ({ content: fs.readFileSync(p.path, 'utf8') }),
        writeTextFile: async () => undefined,
        warning: (w) => row.protocolWarnings.push(w.message),
      },
    },
  );
  try {
    const init = await within('initialize', connection.start());
    row.initialize = { ok: true, protocolVersion: init.protocolVersion, agentCapabilities: init.agentCapabilities, authMethods: init.authMethods, agentInfo: (init as { agentInfo?: unknown }).agentInfo };
    try {
      const result = await within('session/new', connection.acp.call('newSession', { cwd, mcpServers: [] }));
      row.sessionNew = { outcome: 'session', sessionId: result.sessionId };
    } catch (error) {
      if (error instanceof HangError) row.sessionNew = { outcome: 'no-answer', error: error.message, stderr: [...stderr] };
      else if (error instanceof RpcError) row.sessionNew = { outcome: error.code === -32000 ? 'auth-required' : 'error', code: error.code, error: describeError(error), stderr: [...stderr] };
      else if (error instanceof ConnectionClosedError) row.sessionNew = { outcome: 'exited', error: describeError(error), stderr: [...error.stderrTail].slice(-20) };
      else throw error;
    }
  } catch (error) {
    // An agent that never answers initialize is its row (stopped below); anything but the agent's own answers is ours.
    if (!(error instanceof HangError || error instanceof RpcError || error instanceof ConnectionClosedError)) howdahFailures.push(`${agent.id}: ${describeError(error)}`);
    row.initialize ??= { ok: false, error: `${describeError(error)}${stderr.length ? ` (stderr: ${stderr.slice(-5).join(' / ')})` : ''}` };
  } finally {
    await within('stopping the agent', connection.stop('user')).catch((e: unknown) => howdahFailures.push(`${agent.id}: ${describeError(e)}`));
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(cwd, { recursive: true, force: true });
  }
  for (const w of row.protocolWarnings) howdahFailures.push(`${agent.id}: protocol warning: ${w}`);
  return row;
}

function markdown(rows: Row[]): string {
  const cell = (s: unknown) => String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 300);
  const lines = [
    `# Registry agent matrix`,
    '',
    `Built from the registry snapshot ${snapshot.builtFrom.commit.slice(0, 12)} (${snapshot.builtFrom.date}); run ${new Date().toISOString()} on ${currentPlatform() ?? process.platform}, no credentials.`,
    '',
    '| agent | package | install | initialize: protocol | auth methods | capabilities | session/new |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const auth = Array.isArray(r.initialize?.authMethods) ? (r.initialize!.authMethods as { id?: string }[]).map((m) => m.id).join(', ') || '(none)' : '';
    const caps = r.initialize?.agentCapabilities ? Object.keys(r.initialize.agentCapabilities as object).join(', ') : '';
    const session = r.sessionNew ? `${r.sessionNew.outcome}${r.sessionNew.error ? `: ${r.sessionNew.error}` : ''}` : '';
    lines.push(`| ${cell(r.name)} (${r.id}) | ${cell(r.package)} | ${r.install.ok ? `ok (${r.install.seconds.toFixed(0)} s)` : cell(`failed: ${r.install.error}`)} | ${r.initialize ? (r.initialize.ok ? cell(r.initialize.protocolVersion) : cell(`failed: ${r.initialize.error}`)) : ''} | ${cell(auth)} | ${cell(caps)} | ${cell(session)} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const agents = parseRegistry(snapshot.registry).agents.filter((a) => a.distribution.npx);
  const only = process.env.HOWDAH_GREP ? new RegExp(process.env.HOWDAH_GREP) : undefined;
  const installer = new AgentInstaller(STORE);
  const rows: Row[] = [];
  for (const agent of agents.filter((a) => !only || only.test(a.id))) {
    console.log(`registry matrix: ${agent.id} (${agent.distribution.npx!.package})`);
    const row = await probe(agent, installer);
    console.log(`  install ${row.install.ok ? 'ok' : `failed: ${row.install.error?.split('\n')[0]}`}; initialize ${row.initialize?.ok ? `protocol ${String(row.initialize.protocolVersion)}` : row.initialize?.error?.split('\n')[0] ?? '-'}; session/new ${row.sessionNew?.outcome ?? '-'}`);
    rows.push(row);
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'agent-matrix.json'), `${JSON.stringify({ snapshot: snapshot.builtFrom, platform: currentPlatform(), rows, howdahFailures }, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'agent-matrix.md'), markdown(rows));
  const reached = rows.filter((r) => r.sessionNew).length;
  console.log(`registry matrix: ${rows.length} agents probed, ${rows.filter((r) => r.install.ok).length} installed, ${rows.filter((r) => r.initialize?.ok).length} initialized, ${reached} reached session/new (${rows.filter((r) => r.sessionNew?.outcome === 'session').length} opened a session); test-results/agent-matrix.md`);
  if (howdahFailures.length) {
    console.error(`registry matrix: Howdah failures:\n${howdahFailures.map((f) => `  - ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
