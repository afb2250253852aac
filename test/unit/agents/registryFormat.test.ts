import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { installMethod, parseAgent, parseRegistry, PLATFORMS, splitNpmSpec, splitPythonSpec } from '../../../src/agents/registry/registryFormat';
import { platformKey } from '../../../src/agents/registry/platform';
import { compareVersions } from '../../../src/agents/registry/version';
import snapshot from '../../../src/agents/registry/snapshot.json';

const agent = (over: Record<string, unknown> = {}) => ({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'A demo agent',
  distribution: { npx: { package: 'demo-acp@1.0.0' } },
  ...over,
});

describe('registry format', () => {
  it('reads the shipped snapshot without a problem, every agent installable somewhere', () => {
    const parsed = parseRegistry(snapshot.registry);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.agents.length, snapshot.registry.agents.length);
    assert.ok(parsed.agents.length >= 10);
    for (const a of parsed.agents) {
      assert.ok(a.distribution.binary || a.distribution.npx || a.distribution.uvx, a.id);
      assert.match(a.icon ?? 'data:image/svg+xml;base64,', /^data:image\/svg\+xml;base64,/);
    }
    assert.match(snapshot.builtFrom.commit, /^[0-9a-f]{40}$/);
  });

  it('skips a corrupt entry with a problem naming it, keeping the others', () => {
    const parsed = parseRegistry({ version: '1.0.0', agents: [agent({ id: 'good' }), agent({ id: 'bad', version: 'latest' }), 42, agent({ id: 'good2' })] });
    assert.deepEqual(
      parsed.agents.map((a) => a.id),
      ['good', 'good2'],
    );
    assert.equal(parsed.problems.length, 2);
    assert.match(parsed.problems[0]!, /registry agent "bad" left out: version: must start with MAJOR\.MINOR\.PATCH/);
    assert.match(parsed.problems[1]!, /registry agent #3 left out/);
  });

  it('keeps unknown fields on the entry and in its distribution', () => {
    const [a] = parseRegistry({ agents: [agent({ future: { x: 1 }, distribution: { npx: { package: 'p@1.0.0', later: true }, wasm: {} } })] }).agents;
    assert.deepEqual(a!.raw.future, { x: 1 });
    assert.equal((a!.distribution.npx as Record<string, unknown>).later, true);
    assert.deepEqual((a!.raw.distribution as Record<string, unknown>).wasm, {});
  });

  it('leaves out one broken platform, and the whole entry only when nothing is left', () => {
    const binary = {
      'linux-x86_64': { archive: 'https://example.com/a.tar.gz', cmd: './a' },
      'darwin-aarch64': { archive: 'file:///etc/passwd', cmd: './a' },
      'plan9-mips': { archive: 'https://example.com/p', cmd: './a' },
    };
    const { agent: a, problems } = parseAgent(agent({ distribution: { binary } }));
    assert.deepEqual(Object.keys(a!.distribution.binary!), ['linux-x86_64']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /darwin-aarch64 download left out: archive: must be an http\(s\) URL/);
    const none = parseAgent(agent({ distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a', cmd: '' } } } }));
    assert.equal(none.agent, undefined);
    assert.match(none.problems.join('\n'), /no way to install it/);
  });

  it('reads a checksum only as 64 hex digits', () => {
    const sha = 'A'.repeat(64);
    const ok = parseAgent(agent({ distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a', cmd: './a', sha256: sha } } } }));
    assert.equal(ok.agent!.distribution.binary!['linux-x86_64']!.sha256, 'a'.repeat(64));
    const bad = parseAgent(agent({ distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a', cmd: './a', sha256: 'abc' } } } }));
    assert.equal(bad.agent, undefined);
  });

  it('a missing platform falls back to npm, then uv, else nothing', () => {
    const both = parseAgent(agent({ distribution: { binary: { 'darwin-aarch64': { archive: 'https://x/a', cmd: './a' } }, npx: { package: 'p@1.0.0' } } })).agent!;
    assert.equal(installMethod(both, 'darwin-aarch64')?.kind, 'binary');
    assert.equal(installMethod(both, 'linux-x86_64')?.kind, 'npx');
    assert.equal(installMethod(both, undefined)?.kind, 'npx');
    const binaryOnly = parseAgent(agent({ distribution: { binary: { 'darwin-aarch64': { archive: 'https://x/a', cmd: './a' } } } })).agent!;
    assert.equal(installMethod(binaryOnly, 'windows-x86_64'), undefined);
    const uv = parseAgent(agent({ distribution: { uvx: { package: 'fast-agent-acp==0.3.0' } } })).agent!;
    assert.equal(installMethod(uv, 'linux-x86_64')?.kind, 'uvx');
  });

  it('refuses what is not a registry at all', () => {
    for (const raw of [null, 'x', [], { agents: 'no' }, {}]) assert.throws(() => parseRegistry(raw), /Not an ACP registry/);
  });

  it('never throws on random entries and never lets through an entry without an id and a usable distribution (fuzz)', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string()));
    const entry = fc.oneof(
      fc.anything(),
      fc.record(
        {
          id: fc.oneof(fc.constantFrom('a', 'demo-agent', 'Bad', ''), value),
          name: fc.oneof(fc.string(), value),
          version: fc.oneof(fc.constantFrom('1.0.0', '2.3.4-beta', 'x'), value),
          description: fc.oneof(fc.string(), value),
          distribution: fc.oneof(
            value,
            fc.record(
              {
                binary: fc.dictionary(fc.constantFrom(...PLATFORMS, 'other'), fc.oneof(value, fc.record({ archive: fc.constantFrom('https://x/a.zip', 'ftp://x', ''), cmd: fc.string() }))),
                npx: fc.oneof(value, fc.record({ package: fc.string() })),
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const parsed = parseRegistry({ version: '1', agents: entries });
        // Every entry is either an agent or (at least) one problem: none vanishes silently.
        assert.ok(parsed.agents.length + parsed.problems.length >= entries.length);
        for (const a of parsed.agents) {
          assert.match(a.id, /^[a-z][a-z0-9-]*$/);
          assert.ok(a.distribution.npx || a.distribution.uvx || Object.keys(a.distribution.binary ?? {}).length > 0);
          for (const t of Object.values(a.distribution.binary ?? {})) assert.match(t!.archive, /^https?:\/\//i);
        }
        assert.equal(new Set(parsed.agents.map((a) => a.id)).size, parsed.agents.length);
      }),
      { numRuns: 300 },
    );
  });

  it('splits package specs', () => {
    assert.deepEqual(splitNpmSpec('@zed-industries/claude-code-acp@0.16.0'), { name: '@zed-industries/claude-code-acp', version: '0.16.0' });
    assert.deepEqual(splitNpmSpec('opencode-ai@1.2.3'), { name: 'opencode-ai', version: '1.2.3' });
    assert.deepEqual(splitNpmSpec('@scope/x'), { name: '@scope/x' });
    assert.deepEqual(splitPythonSpec('fast-agent-mcp==0.3.1'), { name: 'fast-agent-mcp', version: '0.3.1' });
    assert.deepEqual(splitPythonSpec('kimi-cli@1.9'), { name: 'kimi-cli', version: '1.9' });
    assert.deepEqual(splitPythonSpec('plain'), { name: 'plain' });
  });
});

describe('registry platforms', () => {
  it('maps the extension host platform to the registry name', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('linux', 'arm64'), 'linux-aarch64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('darwin', 'x64'), 'darwin-x86_64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
    assert.equal(platformKey('linux', 'ia32'), undefined);
    assert.equal(platformKey('freebsd', 'x64'), undefined);
  });
});

describe('registry versions', () => {
  it('orders versions numerically, prereleases before their release', () => {
    const ordered = ['0.9.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0', '1.0.1', '1.9.0', '1.10.0', '2.0.0'];
    for (let i = 0; i < ordered.length; i++)
      for (let j = 0; j < ordered.length; j++) assert.equal(compareVersions(ordered[i]!, ordered[j]!), Math.sign(i - j), `${ordered[i]} vs ${ordered[j]}`);
    assert.equal(compareVersions('1.2', '1.2.0'), 0);
    assert.equal(compareVersions('v1.2.3', '1.2.3+build5'), 0);
  });

  it('is antisymmetric and transitive on random versions', () => {
    const v = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.2', '1'))).map(([a, b, c, p]) => `${a}.${b}.${c}${p ? `-${p}` : ''}`);
    fc.assert(
      fc.property(v, v, v, (a, b, c) => {
        assert.equal(compareVersions(a, b), -compareVersions(b, a) || 0);
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) assert.ok(compareVersions(a, c) <= 0);
      }),
    );
  });
});
