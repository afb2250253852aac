import { strict as assert } from 'node:assert';
import { agentChoice, agentPickRow, commandLine, whereFound, type GateAgent } from '../../../src/shared/agentChoice';

// The agent lists (the panel's first-run list, Choose Agent, Add Agent) show what a person needs: the name, the
// version when known, where the agent was found or how it is installed. The command line is for hover or a fold.
const LONG = '/home/someone/.vscode-server/extensions/howdah.howdah-0.1.0/fixtures/fake-agent/agent.js';
const agent = (extra: Partial<GateAgent>): GateAgent => ({ id: 'a', name: 'Agent', command: 'agent-acp', args: [], ...extra });

describe('agent descriptions in lists', () => {
  it('says where each agent was found or how it is installed, with the program name only', () => {
    const cases: [GateAgent, boolean, string][] = [
      [agent({ source: 'settings', command: '/usr/bin/node', args: [LONG, 'markdown'] }), true, 'From your settings (howdah.agents): runs node'],
      [agent({ source: 'settings', command: 'C:\\Program Files\\nodejs\\node.exe', args: [LONG] }), true, 'From your settings (howdah.agents): runs node.exe'],
      [agent({ source: 'settings', command: 'missing-acp' }), false, 'From your settings (howdah.agents): "missing-acp" not found'],
      [agent({ source: 'catalog', command: 'claude-agent-acp' }), true, 'Found on PATH: claude-agent-acp'],
      [agent({ source: 'catalog', command: '/opt/tools/bin/goose', args: ['acp'] }), true, 'Found on this machine: goose'],
      [agent({ source: 'registry', installed: { version: '2.1.0', method: 'npx' } }), true, "Installed 2.1.0 in Howdah's storage (from the ACP registry)"],
      [agent({ source: 'catalog', command: 'qwen' }), false, 'Not installed: "qwen" not found on PATH'],
    ];
    for (const [a, installed, expected] of cases) {
      assert.equal(whereFound(a, installed), expected);
      const view = agentChoice(a, installed);
      assert.equal(view.detail, expected);
      assert.doesNotMatch(view.detail, /fake-agent|\/usr\/bin|Program Files/, 'no folders of the command line in the row');
    }
  });

  it('keeps the full command line for hover, quoted where it has spaces, only when the agent can start', () => {
    const a = agent({ source: 'settings', command: '/usr/bin/node', args: [LONG, 'two words'] });
    assert.equal(agentChoice(a, true).commandLine, `/usr/bin/node ${LONG} "two words"`);
    assert.equal(agentChoice(a, false).commandLine, undefined);
    assert.equal(commandLine('C:\\Program Files\\x.exe', []), '"C:\\\\Program Files\\\\x.exe"');
  });

  it('a Quick Pick row: name as label, version and where it comes from as the description, the command line only in the detail', () => {
    const registry = { version: '0.27.3', description: 'Google’s CLI', license: 'Apache-2.0', distribution: { npx: {} } };
    const installed = agentChoice(agent({ source: 'registry', command: '/home/u/.storage/agents/gemini/0.27.3/node_modules/.bin/gemini', args: ['--acp'], registry, installed: { version: '0.27.3', method: 'npx' } }), true);
    const row = agentPickRow(installed, 'signed in');
    assert.equal(row.label, 'Agent');
    assert.equal(row.description, '0.27.3 · Apache-2.0 · npm · signed in');
    assert.doesNotMatch(row.description, /\//, 'no path in the description');
    assert.match(row.detail, /^Google’s CLI — Installed 0\.27\.3 in Howdah's storage \(from the ACP registry\) — Command: \/home\/u\/\.storage\/agents\/gemini\/0\.27\.3\/node_modules\/\.bin\/gemini --acp$/);

    const fromSettings = agentPickRow(agentChoice(agent({ source: 'settings', command: '/usr/bin/node', args: [LONG] }), true), '');
    assert.equal(fromSettings.description, 'your settings');
    assert.equal(fromSettings.detail, `From your settings (howdah.agents): runs node — Command: /usr/bin/node ${LONG}`);
  });
});
