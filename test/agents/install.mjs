// Installs a pinned real ACP agent from the npm registry into the git-ignored cache
// .vscode-test/agents/<name>@<version>/ on first use; later runs find its `installed.json` and reuse it.
// `node test/agents/install.mjs [name]` installs one (default: all) and prints where its command is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE } from '../harness/config.mjs';

export const AGENTS_CACHE = path.join(CACHE, 'agents');

/**
 * The agents this tier knows: npm package, pinned version, the bin to run, its ACP arguments.
 * Claude Code's adapter is published under two scopes; @zed-industries 0.23.1 is the one seen working
 * offline (/work/shared/agents-in-the-wild.md); @agentclientprotocol starts at 0.24.
 */
export const AGENTS = {
  claude: { pkg: '@zed-industries/claude-agent-acp', version: '0.23.1', bin: 'claude-agent-acp', args: [] },
  codex: { pkg: '@zed-industries/codex-acp', version: '0.16.0', bin: 'codex-acp', args: [] },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', args: ['--acp'] },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', args: ['acp'] },
};

/** Installs `name` unless cached; resolves to { dir, command, args, version, seconds, cached }. */
export function installAgent(name) {
  const spec = AGENTS[name];
  if (!spec) throw new Error(`unknown agent ${name}; known: ${Object.keys(AGENTS).join(', ')}`);
  const dir = path.join(AGENTS_CACHE, `${name}@${spec.version}`);
  const marker = path.join(dir, 'installed.json');
  const command = path.join(dir, 'node_modules', '.bin', spec.bin);
  if (fs.existsSync(marker) && fs.existsSync(command)) {
    return { ...spec, dir, command, cached: true, seconds: 0 };
  }
  const t0 = Date.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `howdah-agent-${name}`, private: true }, null, 2));
  const log = path.join(AGENTS_CACHE, `${name}@${spec.version}-install.log`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `${spec.pkg}@${spec.version}`], {
    cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20,
  });
  fs.writeFileSync(log, `${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.status !== 0 || !fs.existsSync(command)) {
    throw new Error(`npm install ${spec.pkg}@${spec.version} failed (exit ${r.status ?? r.signal}); see ${log}`);
  }
  const seconds = (Date.now() - t0) / 1000;
  fs.writeFileSync(marker, JSON.stringify({ pkg: spec.pkg, version: spec.version, installedAt: new Date().toISOString(), seconds }, null, 2));
  return { ...spec, dir, command, cached: false, seconds };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const name of process.argv[2] ? [process.argv[2]] : Object.keys(AGENTS)) {
    const a = installAgent(name);
    console.log(`${name}: ${a.pkg}@${a.version} ${a.cached ? 'cached' : `installed in ${a.seconds.toFixed(1)} s`} → ${a.command}`);
  }
}
