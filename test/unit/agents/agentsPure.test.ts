import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { CATALOG, catalogEntry, catalogForRegistry, rejectedArguments } from '../../../src/agents/catalog';
import { parseRegistry } from '../../../src/agents/registry/registryFormat';
import snapshot from '../../../src/agents/registry/snapshot.json';
import { resolveCommand, usualBinDirs, type ResolutionEnv } from '../../../src/agents/commandResolution';
import { LimitedRestarts } from '../../../src/session/restartPolicy';
import { changesForDefaults, rememberChoice } from '../../../src/agents/sessionDefaults';

function fakeEnv(files: string[], env: Record<string, string>, platform: NodeJS.Platform = 'linux', dirs: Readonly<Record<string, readonly string[]>> = {}): ResolutionEnv {
  const set = new Set(files);
  return { platform, env, home: platform === 'win32' ? 'C:\\Users\\u' : '/home/u', isExecutable: (f) => set.has(f), list: (d) => [...(dirs[d] ?? [])] };
}

describe('command resolution', () => {
  it('finds a command on PATH first', () => {
    const r = fakeEnv(['/usr/bin/codex-acp', '/home/u/.local/bin/codex-acp'], { PATH: '/bin:/usr/bin' });
    assert.deepEqual(resolveCommand('codex-acp', r), { path: '/usr/bin/codex-acp', via: 'path' });
  });

  it('finds globally installed commands a GUI-started VS Code has no PATH for', () => {
    const nvm = '/home/u/.nvm/versions/node';
    const r = fakeEnv([`${nvm}/v22.3.0/bin/claude-agent-acp`, `${nvm}/v20.1.0/bin/claude-agent-acp`], { PATH: '/usr/bin' }, 'linux', { [nvm]: ['v20.1.0', 'v22.3.0', 'v9.0.0'] });
    assert.deepEqual(resolveCommand('claude-agent-acp', r), { path: `${nvm}/v22.3.0/bin/claude-agent-acp`, via: 'usual' });
    for (const [file, dirs] of [
      ['/home/u/.volta/bin/gemini', {}],
      ['/home/u/.bun/bin/gemini', {}],
      ['/opt/homebrew/bin/gemini', {}],
      ['/home/u/.npm-global/bin/gemini', {}],
      ['/home/u/.local/share/fnm/node-versions/v22.0.0/installation/bin/gemini', { '/home/u/.local/share/fnm/node-versions': ['v22.0.0'] }],
    ] as const) {
      assert.equal(resolveCommand('gemini', fakeEnv([file], { PATH: '/usr/bin' }, 'linux', dirs))?.path, file);
    }
  });

  it('falls back to the login shell\'s PATH', () => {
    const r = fakeEnv(['/custom/tools/opencode'], { PATH: '/usr/bin' });
    assert.equal(resolveCommand('opencode', r), undefined);
    assert.deepEqual(resolveCommand('opencode', r, '/usr/bin:/custom/tools'), { path: '/custom/tools/opencode', via: 'login-shell' });
  });

  it('finds npm\'s .cmd shims on Windows through PATHEXT', () => {
    const appData = 'C:\\Users\\u\\AppData\\Roaming';
    const shim = path.join(appData, 'npm', 'codex-acp.cmd');
    const r = fakeEnv([shim], { PATH: 'C:\\Windows', PATHEXT: '.COM;.EXE;.CMD', APPDATA: appData }, 'win32');
    assert.equal(resolveCommand('codex-acp', r)?.path, shim);
  });

  it('takes absolute commands as they are, and reports a missing one', () => {
    const r = fakeEnv(['/opt/agent/bin/agent'], { PATH: '' });
    assert.deepEqual(resolveCommand('/opt/agent/bin/agent', r), { path: '/opt/agent/bin/agent', via: 'absolute' });
    assert.equal(resolveCommand('/opt/agent/bin/missing', r), undefined);
    assert.equal(resolveCommand('nowhere', r), undefined);
  });

  it('lists the usual folders with the npm prefix first', () => {
    const dirs = usualBinDirs(fakeEnv([], { npm_config_prefix: '/opt/npm' }));
    assert.equal(dirs[0], '/opt/npm/bin');
    assert.ok(dirs.includes('/home/u/.local/bin'));
  });
});

describe('agent catalog', () => {
  it('has launch flags, sign-in and docs for the agents users ask for, tied to their registry entries', () => {
    for (const id of ['claude-code', 'codex', 'gemini', 'copilot', 'opencode', 'qwen-code', 'pi', 'cursor', 'goose']) {
      const entry = catalogEntry(id);
      assert.ok(entry, id);
      assert.ok(entry.command && entry.signIn && entry.docs.startsWith('https://'), id);
      assert.ok(!('install' in entry), `${id}: installing is the registry installer's job, not a shell command`);
    }
    const registryIds = new Set(parseRegistry(snapshot.registry).agents.map((a) => a.id));
    for (const entry of CATALOG.filter((e) => e.registryId)) assert.ok(registryIds.has(entry.registryId!), `${entry.id} → ${entry.registryId} is in the snapshot`);
    assert.equal(catalogForRegistry('claude-code-acp')?.id, 'claude-code');
    assert.equal(new Set(CATALOG.map((e) => e.id)).size, CATALOG.length);
    assert.deepEqual(catalogEntry('gemini')?.args, ['--acp']);
    assert.deepEqual(catalogEntry('gemini')?.fallbackArgs, ['--experimental-acp']);
  });

  it('recognises an agent rejecting the ACP flag', () => {
    assert.ok(rejectedArguments(['Unknown argument: acp']));
    assert.ok(rejectedArguments(['error: unrecognized option --acp']));
    assert.ok(!rejectedArguments(['Authentication required']));
  });
});

describe('restart policy', () => {
  it('allows 3 automatic restarts within 5 minutes, then leaves it to the user', () => {
    const policy = new LimitedRestarts();
    const crash = { message: 'Fake exited with code 1', exitCode: 1, signal: null, stderrTail: [] };
    const t0 = 1_000_000;
    const at = (t: number) => policy.afterCrash(crash, t).action;
    assert.equal(at(t0), 'restart');
    assert.equal(at(t0 + 1000), 'restart');
    assert.deepEqual(policy.afterCrash(crash, t0 + 2000), { action: 'restart', note: '3 of 3 automatic restarts in 5 minutes' });
    assert.equal(at(t0 + 3000), 'ask');
    assert.equal(at(t0 + 5 * 60 * 1000 - 1), 'ask');
    assert.equal(at(t0 + 5 * 60 * 1000), 'restart', 'the oldest restart left the window');
  });
});

describe('session defaults', () => {
  const state = {
    configOptions: [
      { id: 'model', name: 'Model', type: 'select' as const, category: 'model', currentValue: 'sonnet', options: { kind: 'flat' as const, options: [{ value: 'sonnet', name: 'Sonnet' }, { value: 'opus', name: 'Opus' }] } },
      { id: 'mode', name: 'Mode', type: 'select' as const, category: 'mode', currentValue: 'default', options: { kind: 'flat' as const, options: [{ value: 'default', name: 'Default' }, { value: 'acceptEdits', name: 'Accept edits' }] } },
      { id: 'fast', name: 'Fast', type: 'boolean' as const, currentValue: false },
    ],
    modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'acceptEdits', name: 'Accept edits' }] },
    models: undefined,
  };

  it('re-applies remembered picks the session offers, config options first', () => {
    assert.deepEqual(changesForDefaults({ model: 'opus', mode: 'acceptEdits', fast: true }, state), [
      { kind: 'config', id: 'model', value: 'opus' },
      { kind: 'config', id: 'mode', value: 'acceptEdits' },
      { kind: 'config', id: 'fast', value: true },
    ]);
  });

  it('skips values the session does not offer or already has, and uses legacy pickers when that is all there is', () => {
    assert.deepEqual(changesForDefaults({ model: 'gpt-9', mode: 'default' }, state), []);
    const legacy = { configOptions: [], modes: state.modes, models: { currentModelId: 'a', availableModels: [{ modelId: 'a', name: 'A' }, { modelId: 'b', name: 'B' }] } };
    assert.deepEqual(changesForDefaults({ mode: 'acceptEdits', model: 'b' }, legacy), [
      { kind: 'mode', id: 'mode', value: 'acceptEdits' },
      { kind: 'model', id: 'model', value: 'b' },
    ]);
    assert.deepEqual(changesForDefaults(undefined, state), []);
  });

  it('remembers a choice per agent', () => {
    assert.deepEqual(rememberChoice({ codex: { model: 'x' } }, 'claude-code', 'mode', 'plan'), { codex: { model: 'x' }, 'claude-code': { mode: 'plan' } });
  });
});
