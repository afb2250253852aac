#!/usr/bin/env node
// Builds the registry snapshot Howdah ships (src/agents/registry/snapshot.json) from the ACP registry's own files,
// the way its build (.github/workflows/build_registry.py) assembles registry.json: every top-level folder with an
// agent.json, except hidden ones and `_not_yet_unsupported`. Each icon.svg is inlined as a data: URI, so the
// first-run list has icons without the network. The output records the commit and date it was built from.
//
//   node scripts/build-registry-snapshot.mjs <registry git dir or checkout>
//
// (A bare mirror works: everything is read with `git show`, nothing from a work tree.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'src', 'agents', 'registry', 'snapshot.json');
const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/build-registry-snapshot.mjs <agentclientprotocol/registry git dir or checkout>');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['-C', source, ...args], { encoding: 'buffer', maxBuffer: 64 << 20 });
const text = (...args) => git(...args).toString('utf8');

const commit = text('rev-parse', 'HEAD').trim();
const date = text('log', '-1', '--format=%cI', 'HEAD').trim();
const files = new Set(text('ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean));
const folders = [...new Set([...files].map((f) => f.split('/')).filter((p) => p.length === 2 && p[1] === 'agent.json').map((p) => p[0]))]
  .filter((d) => !d.startsWith('.') && !d.startsWith('_'))
  .sort();

const agents = [];
for (const folder of folders) {
  const agent = JSON.parse(text('show', `HEAD:${folder}/agent.json`));
  if (files.has(`${folder}/icon.svg`)) agent.icon = `data:image/svg+xml;base64,${git('show', `HEAD:${folder}/icon.svg`).toString('base64')}`;
  else delete agent.icon;
  agents.push(agent);
}
const snapshot = {
  builtFrom: { repository: 'https://github.com/agentclientprotocol/registry', commit, date },
  registry: { version: '1.0.0', agents },
};
fs.writeFileSync(OUT, `${JSON.stringify(snapshot, null, 2)}\n`);
console.log(`${path.relative(REPO, OUT)}: ${agents.length} agents from ${commit.slice(0, 12)} (${date})`);
