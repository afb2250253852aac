import { strict as assert } from 'node:assert';
import { parseAgentSettings } from '../../../src/agents/agentDefinitions';

describe('agent settings', () => {
  it('parses howdah.agents entries and reports invalid ones without dropping the rest', () => {
    const { agents, problems } = parseAgentSettings({
      claude: { command: 'claude-agent-acp', env: { IS_SANDBOX: '1' } },
      gemini: { name: 'Gemini CLI', command: 'gemini', args: ['--acp'], cwd: '/w' },
      broken: { args: ['x'] },
      wrong: { command: 'x', args: 'not-a-list' },
    });
    assert.deepEqual(agents.map((a) => [a.id, a.name, a.command, a.args]), [
      ['claude', 'claude', 'claude-agent-acp', []],
      ['gemini', 'Gemini CLI', 'gemini', ['--acp']],
    ]);
    assert.deepEqual(agents[0].env, { IS_SANDBOX: '1' });
    assert.equal(problems.length, 2);
    assert.match(problems[0], /howdah\.agents\.broken/);
    assert.deepEqual(parseAgentSettings(['x']).problems.length, 1);
    assert.deepEqual(parseAgentSettings(undefined), { agents: [], problems: [] });
  });
});
