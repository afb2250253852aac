import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { accountId, ACCOUNT_HOMES, parseAccounts } from '../../../src/agents/accountHomes';
import { fetchRegistry, isInlineSvg, readCache, writeCache } from '../../../src/agents/registry/registryFetch';
import { parseRegistry } from '../../../src/agents/registry/registryFormat';

describe('registry fetch and cache', () => {
  let server: http.Server;
  let base = '';
  const routes = new Map<string, string>();
  before(async () => {
    server = http.createServer((req, res) => {
      const body = routes.get(req.url ?? '');
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('inlines icons as data: URIs, relative ones too; a missing icon takes the known one, a non-SVG none', async () => {
    const agent = (id: string, icon?: string) => ({ id, name: id, version: '1.0.0', description: 'd', distribution: { npx: { package: `${id}@1.0.0` } }, ...(icon ? { icon } : {}) });
    routes.set('/r/registry.json', JSON.stringify({ version: '1.0.0', agents: [agent('abs', `${base}/icons/a.svg`), agent('rel', './b.svg'), agent('gone', `${base}/nothing.svg`), agent('html', `${base}/page.html`), agent('none')] }));
    routes.set('/icons/a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><path fill="currentColor"/></svg>');
    routes.set('/r/b.svg', '<svg viewBox="0 0 16 16"/>');
    routes.set('/page.html', '<html>not an icon</html>');
    const known = new Map([['gone', 'data:image/svg+xml;base64,PHN2Zy8+']]);
    const raw = await fetchRegistry(`${base}/r/registry.json`, AbortSignal.timeout(10_000), known);
    const icons = Object.fromEntries(parseRegistry(raw).agents.map((a) => [a.id, a.icon]));
    assert.ok(isInlineSvg(icons.abs) && Buffer.from(icons.abs.split(',')[1]!, 'base64').toString().includes('currentColor'));
    assert.ok(isInlineSvg(icons.rel));
    assert.equal(icons.gone, known.get('gone'));
    assert.equal(icons.html, undefined);
    assert.equal(icons.none, undefined);
  });

  it('a registry that cannot be fetched is an error (the caller keeps what it has)', async () => {
    await assert.rejects(fetchRegistry(`${base}/missing.json`, AbortSignal.timeout(10_000), new Map()), /answered 404/);
  });

  it('the cache round-trips and a corrupt cache reads as none', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-cache-')), 'registry', 'registry.json');
    assert.equal(await readCache(file), undefined);
    await writeCache(file, { url: 'u', fetchedAt: 5, registry: { agents: [] } });
    assert.deepEqual(await readCache(file), { url: 'u', fetchedAt: 5, registry: { agents: [] } });
    fs.writeFileSync(file, '{ half');
    assert.equal(await readCache(file), undefined);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['registry.json'], 'no temporary file left');
  });
});

describe('agent accounts', () => {
  it('names an account after its agent and label, and reads back only well-formed records of known agents', () => {
    assert.equal(accountId('codex', 'Work'), 'codex-work');
    assert.equal(accountId('claude-code', '  Client: ACME / 2  '), 'claude-code-client-acme-2');
    assert.equal(accountId('codex', '✨'), 'codex-account');
    assert.deepEqual(Object.keys(ACCOUNT_HOMES).sort(), ['claude-code', 'codex', 'grok']);
    assert.equal(ACCOUNT_HOMES.codex!.variable, 'CODEX_HOME');
    assert.deepEqual(parseAccounts([{ id: 'codex-work', baseId: 'codex', label: 'Work' }, { id: 'x', baseId: 'gemini', label: 'y' }, null, 3, { id: 1 }]), [{ id: 'codex-work', baseId: 'codex', label: 'Work' }]);
    assert.deepEqual(parseAccounts('nope'), []);
  });
});
