import { strict as assert } from 'node:assert';
import { gateView, type GateAgent } from '../../../src/panel/gateView';
import { parseWebviewMessage } from '../../../src/shared/protocol';

const agent = (id: string, extra: Partial<GateAgent> = {}): GateAgent => ({ id, name: id.toUpperCase(), command: `${id}-acp`, args: [], ...extra });

describe('panel gate: what stands before a conversation', () => {
  it('shows nothing when trusted, with no question and nothing to choose', () => {
    assert.equal(gateView({ trusted: true }), undefined);
  });

  it('a sign-in question comes first, with the choices as given', () => {
    const signIn = { agentName: 'Codex', message: 'Authentication required', choices: [{ id: 'chatgpt', label: 'Log in with ChatGPT', description: 'browser' }] };
    assert.deepEqual(gateView({ trusted: false, signIn }), { kind: 'signIn', ...signIn });
  });

  it('an untrusted workspace says why nothing starts', () => {
    const view = gateView({ trusted: false, availability: [{ agent: agent('a'), installed: true }] });
    assert.equal(view?.kind, 'untrusted');
    assert.match(view?.kind === 'untrusted' ? view.message : '', /untrusted workspace/);
  });

  it('the first-run list puts installed agents first and says which can be installed from the registry', () => {
    const registry = { version: '0.27.3', description: 'Google’s CLI', license: 'Apache-2.0', icon: 'data:image/svg+xml;base64,PHN2Zy8+', distribution: { npx: {} } };
    const view = gateView({
      trusted: true,
      availability: [
        { agent: agent('gemini', { source: 'registry', catalog: { docs: 'https://example.com' }, registry }), installed: false },
        { agent: agent('fake', { command: '/usr/bin/node', args: ['agent.js', 'markdown'] }), installed: true },
        { agent: agent('custom'), installed: false },
        { agent: agent('codex', { source: 'registry', registry: { ...registry, version: '1.1.0', icon: 'https://evil.example/x.svg', distribution: { binary: {} } }, installed: { version: '1.0.0', method: 'binary' } }), installed: true, update: '1.1.0' },
      ],
    });
    assert.ok(view?.kind === 'chooseAgent');
    assert.deepEqual(
      view.agents.map((a) => [a.id, a.installed, a.detail, a.canInstall, a.hasDocs, a.distribution, a.updateTo, a.version]),
      [
        ['fake', true, 'Found on this machine: node', false, false, undefined, undefined, undefined],
        ['codex', true, "Installed 1.0.0 in Howdah's storage (from the ACP registry)", false, false, 'binary', '1.1.0', '1.0.0'],
        ['gemini', false, 'Not installed', true, true, 'npm', undefined, '0.27.3'],
        ['custom', false, 'Not installed: "custom-acp" not found on PATH', false, false, undefined, undefined, undefined],
      ],
    );
    // Only an inline SVG is passed on as an icon: a URL would make the webview load something.
    assert.equal(view.agents.find((a) => a.id === 'gemini')?.icon, registry.icon);
    assert.equal(view.agents.find((a) => a.id === 'codex')?.icon, undefined);
    assert.equal(view.agents.find((a) => a.id === 'gemini')?.license, 'Apache-2.0');
  });

  it('why an agent could not start comes after sign-in and trust, before the agent list, until it is gone', () => {
    const startFailure = { id: 'f1', agentName: 'Fake', message: 'session/new failed (error -32603).', agentMessage: 'no model', stderr: ['why'], signIn: false };
    const availability = [{ agent: agent('a'), installed: true }];
    assert.deepEqual(gateView({ trusted: true, startFailure, availability }), {
      kind: 'startError', id: 'f1', title: 'Fake could not start a session', agentName: 'Fake', message: 'session/new failed (error -32603).', agentMessage: 'no model', stderr: ['why'], actions: ['retry', 'showLog', 'editSettings', 'dismiss'],
    });
    const restart = gateView({ trusted: true, startFailure: { ...startFailure, sessionKey: 's-1' } });
    assert.equal(restart?.kind === 'startError' && restart.title, 'Fake could not continue the conversation');
    const auth = gateView({ trusted: true, startFailure: { ...startFailure, signIn: true } });
    assert.deepEqual(auth?.kind === 'startError' && auth.actions, ['signIn', 'retry', 'showLog', 'editSettings', 'dismiss']);
    assert.equal(gateView({ trusted: false, startFailure })?.kind, 'untrusted');
    assert.equal(gateView({ trusted: true, startFailure, signIn: { agentName: 'Fake', message: 'm', choices: [] } })?.kind, 'signIn');
  });

  it('its buttons are webview messages the host accepts, and nothing looser', () => {
    for (const message of [
      { type: 'signIn', choiceId: 'chatgpt' },
      { type: 'signIn', choiceId: null },
      { type: 'chooseAgent', agentId: 'fake' },
      { type: 'installAgent', agentId: 'gemini' },
      { type: 'agentDocs', agentId: 'gemini' },
      { type: 'signInAgent', agentId: 'codex' },
      { type: 'manageTrust' },
      ...['retry', 'signIn', 'showLog', 'editSettings', 'dismiss'].map((action) => ({ type: 'startError', id: 'f1', action })),
    ]) {
      assert.deepEqual(parseWebviewMessage(message), message);
    }
    for (const bad of [{ type: 'signIn' }, { type: 'signIn', choiceId: '' }, { type: 'chooseAgent', agentId: 3 }, { type: 'installAgent' }, { type: 'startError', id: 'f1', action: 'run' }, { type: 'startError', action: 'retry' }]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
