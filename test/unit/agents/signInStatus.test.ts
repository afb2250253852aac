import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CATALOG } from '../../../src/agents/catalog';
import { checkSignIn, readSignInState } from '../../../src/agents/signInStatus';
import { agentChoice } from '../../../src/shared/agentChoice';

describe('sign-in state from the agent CLI', () => {
  it('reads what the status commands print', () => {
    assert.equal(readSignInState(0, 'Logged in using ChatGPT'), 'signed-in');
    assert.equal(readSignInState(1, 'Not logged in'), 'signed-out');
    assert.equal(readSignInState(0, '{"loggedIn": false, "authMethod": "none"}'), 'signed-out', 'words win over an exit 0');
    assert.equal(readSignInState(0, '{"loggedIn": true}'), 'signed-in');
    assert.equal(readSignInState(0, '┌  Credentials ~/.local/share/opencode/auth.json\n└  0 credentials'), 'signed-out');
    assert.equal(readSignInState(2, ''), 'signed-out');
  });

  it('runs the command with the agent environment; a missing command or a hang is unknown', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-status-'));
    const script = path.join(dir, 'status');
    fs.writeFileSync(script, '#!/bin/sh\nif [ -f "$CODEX_HOME/auth.json" ]; then echo "Logged in"; else echo "Not logged in"; exit 1; fi\n', { mode: 0o755 });
    assert.equal(await checkSignIn(script, [], { CODEX_HOME: dir }, dir), 'signed-out');
    fs.writeFileSync(path.join(dir, 'auth.json'), '{}');
    assert.equal(await checkSignIn(script, [], { CODEX_HOME: dir }, dir), 'signed-in');
    assert.equal(await checkSignIn(path.join(dir, 'missing'), [], {}, dir), 'unknown');
    const hang = path.join(dir, 'hang');
    fs.writeFileSync(hang, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    assert.equal(await checkSignIn(hang, [], {}, dir, 200), 'unknown');
  });

  it('the catalog has a status command for the agents whose CLI reports it', () => {
    const withStatus = CATALOG.filter((e) => e.signInStatus).map((e) => [e.id, e.signInStatus!.join(' ')]);
    assert.deepEqual(withStatus, [
      ['claude-code', 'claude auth status'],
      ['codex', 'codex login status'],
      ['opencode', 'opencode auth list'],
      ['cursor', 'cursor-agent status'],
    ]);
  });

  it('the agent list offers Sign in for an installed agent with a login command', () => {
    const agent = { id: 'codex', name: 'Codex', command: 'codex-acp', args: [], catalog: { signIn: 'codex login' } };
    assert.deepEqual([agentChoice(agent, true, undefined, 'signed-out').signIn, agentChoice(agent, true, undefined, 'signed-out').canSignIn], ['signed-out', true]);
    assert.equal(agentChoice(agent, false).canSignIn, undefined, 'not before it is installed');
  });
});
