// The ACP registry from the first-run choice, in the installed .vsix: a registry served from 127.0.0.1 by this test
// lists the scripted fake agent packed as a tar.gz; with no default agent the panel offers "Install Registry Fake";
// one click installs it into Howdah's storage and starts it, and it answers the first message.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { REPO } from '../harness/config.mjs';
import { sendPrompt } from '../harness/panel.mjs';
import { openHowdahView, runCommand } from '../harness/workbench.mjs';
import { closeAllSessions } from './agent-choice.mjs';
import { e2e, loadWorkbench, suiteScreenshots } from './context.mjs';

const settingsFile = () => path.join(e2e.server.dataDir, 'User', 'settings.json');
const readSettings = () => JSON.parse(fs.readFileSync(settingsFile(), 'utf8'));
const conversation = (wv) => wv.getByRole('region', { name: 'Conversation' });


/** The fake agent and a launcher playing the markdown scenario, packed as the registry's tar.gz. */
async function packedFakeAgent(dir) {
  const src = path.join(dir, 'src');
  const fake = path.join(REPO, 'fixtures', 'fake-agent');
  fs.mkdirSync(path.join(src, 'fake-agent', 'scenarios'), { recursive: true });
  fs.mkdirSync(path.join(src, 'bin'));
  for (const f of fs.readdirSync(fake).filter((f) => f.endsWith('.js'))) fs.copyFileSync(path.join(fake, f), path.join(src, 'fake-agent', f));
  fs.copyFileSync(path.join(fake, 'scenarios', 'markdown.json'), path.join(src, 'fake-agent', 'scenarios', 'markdown.json'));
  const launcher = `#!/bin/sh\nhere="$(cd "$(dirname "$0")/.." && pwd)"\nexec "${process.execPath}" "$here/fake-agent/agent.js" "$here/fake-agent/scenarios/markdown.json"\n`;
  fs.writeFileSync(path.join(src, 'bin', 'fake-acp'), launcher, { mode: 0o755 });
  const file = path.join(dir, 'registry-fake.tar.gz');
  await tar.c({ gzip: true, cwd: src, file, portable: true }, ['bin', 'fake-agent']);
  return fs.readFileSync(file);
}

describe('registry: install an agent from the first-run choice (installed .vsix)', function () {
  this.timeout(180000);
  const shot = suiteScreenshots('registry');
  let original;
  let server;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-e2e-registry-'));

  before(async () => {
    original = fs.readFileSync(settingsFile(), 'utf8');
    const archive = await packedFakeAgent(work);
    const icon = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="currentColor"/></svg>').toString('base64')}`;
    server = http.createServer((req, res) => {
      const base = `http://127.0.0.1:${server.address().port}`;
      if (req.url === '/registry.json') {
        const target = { archive: `${base}/registry-fake.tar.gz`, cmd: './bin/fake-acp', sha256: createHash('sha256').update(archive).digest('hex') };
        const agent = { id: 'registry-fake', name: 'Registry Fake', version: '1.0.0', description: 'The scripted fake agent, from a registry', license: 'MIT', icon, distribution: { binary: Object.fromEntries(['linux-x86_64', 'linux-aarch64', 'darwin-aarch64', 'darwin-x86_64'].map((p) => [p, target])) } };
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0.0', agents: [agent] }));
      }
      if (req.url === '/registry-fake.tar.gz') return void res.writeHead(200, { 'content-length': archive.length }).end(archive);
      res.writeHead(404).end();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    const wv = await openHowdahView(e2e.page).catch(() => undefined);
    if (wv) await runCommand(e2e.page, 'Howdah: Close Session').catch(() => {});
    fs.writeFileSync(settingsFile(), original);
    server?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('Install <name> in the first-run list installs it, starts it, and it answers the first message', async () => {
    const { page } = e2e;
    const settings = readSettings();
    delete settings['howdah.defaultAgent'];
    settings['howdah.registry.url'] = `http://127.0.0.1:${server.address().port}/registry.json`;
    fs.writeFileSync(settingsFile(), JSON.stringify(settings, null, 2));
    await loadWorkbench();
    const wv = await openHowdahView(page);
    await closeAllSessions(page, wv);
    const gate = wv.getByRole('region', { name: 'Choose an agent' });
    await gate.waitFor({ timeout: 30000 });
    // The registry is fetched in the background: the list grows by the served agent without waiting on it.
    const install = gate.getByRole('button', { name: 'Install Registry Fake' });
    await install.waitFor({ timeout: 30000 });
    const item = gate.getByRole('listitem').filter({ hasText: 'The scripted fake agent, from a registry' });
    assert.match(await item.innerText(), /1\.0\.0 · MIT · binary/);
    assert.match(await item.innerText(), /The scripted fake agent, from a registry/);
    await shot('registry-first-run');
    await install.click();
    await conversation(wv).getByText('Ask Registry Fake anything.', { exact: false }).waitFor({ timeout: 60000 });
    await gate.waitFor({ state: 'hidden' });
    assert.equal(readSettings()['howdah.defaultAgent'], 'registry-fake');
    await sendPrompt(wv, 'Show me an example');
    await wv.getByRole('heading', { name: 'Greeting helper' }).waitFor({ timeout: 30000 });
    await shot('registry-first-answer');
  });
});
