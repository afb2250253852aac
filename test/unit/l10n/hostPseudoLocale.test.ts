// First: the pseudo-locale is in place before the modules below build their module-level messages.
import { PSEUDO_OPEN, strayWords } from '../support/pseudoBundle';
import { strict as assert } from 'node:assert';
import { howItEnded } from '../../../src/acp/agentConnection';
import { ConnectionClosedError, RpcError } from '../../../src/acp/errors';
import { safeEntryPath } from '../../../src/agents/registry/archivePaths';
import { cancelled, diskProblem, NPM_HINT, UV_HINT } from '../../../src/agents/registry/installErrors';
import { describeStartFailure, markStep, toStartFailure } from '../../../src/agents/startFailure';
import { problemsText, MAX_PROBLEMS } from '../../../src/panel/problemsText';
import { UNTITLED } from '../../../src/session/pastSessions';
import { LimitedRestarts } from '../../../src/session/restartPolicy';
import { agentChoice, agentPickRow, whereFound, type GateAgent } from '../../../src/shared/agentChoice';
import { classifyCommand } from '../../../src/terminals/commandClassifier';
import { sensitiveReason } from '../../../src/workspace/sensitivePaths';

/*
 * The text that reaches the user indirectly — an error's message a notification shows later, a reason a dialog
 * quotes, a row a quick pick lists — built in a pseudo-locale: every word must come from the bundle (⟦…⟧) or from
 * what was passed in. The static scan sees literals at sinks; this sees what these functions really return. The
 * inputs speak a made-up language (zorbl, quux…) so that no English word hides among them.
 */

function assertTranslated(text: string, ...data: string[]): void {
  assert.ok(text.includes(PSEUDO_OPEN), `not translated at all: ${JSON.stringify(text)}`);
  assert.deepEqual(strayWords(text, data), [], `hard-coded words in ${JSON.stringify(text)}`);
}

const agent = { id: 'zorbl', name: 'Zorbl' };

describe('the host’s composed messages in a pseudo-locale', () => {
  it('how an agent ended, and why it could not start a session', () => {
    assertTranslated(howItEnded({ code: 3, signal: null }), '3');
    assertTranslated(howItEnded({ code: null, signal: 'SIGKILL' }), 'SIGKILL');
    assertTranslated(howItEnded({ code: null, signal: null }));
    const exited = markStep(new ConnectionClosedError('Zorbl quux', 1, null, ['quuxed']), 'initialize');
    assertTranslated(toStartFailure(agent, exited).message, 'Zorbl', 'initialize', '1');
    const unstarted = markStep(new ConnectionClosedError('Zorbl quux', null, null, []), 'spawn');
    assertTranslated(toStartFailure(agent, unstarted).message, 'Zorbl');
    assertTranslated(toStartFailure(agent, markStep(new RpcError(-32000, 'quux'), 'session/new')).message, 'Zorbl', 'session/new', '-32000');
    assertTranslated(toStartFailure(agent, markStep(new Error('quux'), 'session/load')).message, 'session/load', 'quux');
    assertTranslated(describeStartFailure(agent, new Error('quux blarg')), 'Zorbl', 'quux blarg');
  });

  it('why a command needs asking, including a line Howdah could not read and the user’s unreadable pattern', () => {
    const asked = classifyCommand("rm -rf ./zorbl && sudo quux 'blarg", undefined, { ask: ['/(/'] });
    assert.ok(asked.hits.length >= 2, JSON.stringify(asked.hits));
    for (const hit of asked.hits) assertTranslated(hit.reason, asked.display, '/(/');
    const hidden = classifyCommand('quux\u200bzorbl');
    for (const hit of hidden.hits) assertTranslated(hit.reason, hidden.display);
    const denied = classifyCommand('rm -rf /');
    assert.equal(denied.verdict, 'deny');
    for (const hit of denied.hits) assertTranslated(hit.reason);
    const empty = classifyCommand('quux', undefined, { deny: ['  '] });
    for (const problem of empty.problems) assertTranslated(problem, '  ');
  });

  it('why a write needs consent, and why an archive was refused', () => {
    for (const p of ['/w/.git/hooks/zorbl', '/w/quux/.bashrc', '/w/.env.zorbl', '/w/.vscode/tasks.json', '/w/AGENTS.md']) {
      const why = sensitiveReason(p);
      assert.ok(why, p);
      assertTranslated(why, '.git/', '.git', '.vscode');
    }
    for (const name of ['/zorbl', '../quux', 'C:/zorbl', 'a\0b']) {
      assert.throws(() => safeEntryPath(name), (error: Error) => {
        assertTranslated(error.message, name.replace('\0', '?'));
        return true;
      });
    }
  });

  it('install errors and their hints', () => {
    assertTranslated(cancelled().message);
    assertTranslated(UV_HINT, 'https://docs.astral.sh/uv/getting-started/installation/', 'https://astral.sh/uv/install.sh', 'https://astral.sh/uv/install.ps1', 'curl -LsSf', 'powershell -ExecutionPolicy ByPass -c', 'irm', 'iex', 'brew install uv', 'pipx install uv', 'sh', 'uv');
    assertTranslated(NPM_HINT, 'https://nodejs.org', 'npm', 'Node.js');
    for (const code of ['ENOSPC', 'EDQUOT', 'EACCES']) assertTranslated(diskProblem({ code })!);
  });

  it('where an agent was found, its pick row, restarts, problems and an untitled conversation', () => {
    const gate = (extra: Partial<GateAgent>): GateAgent => ({ id: 'zorbl', name: 'Zorbl', command: 'zorbl-acp', args: [], ...extra });
    const cases: [GateAgent, boolean][] = [
      [gate({ source: 'settings' }), true],
      [gate({ source: 'settings' }), false],
      [gate({ source: 'catalog' }), true],
      [gate({ source: 'catalog', command: '/opt/quux/zorbl' }), true],
      [gate({ source: 'catalog' }), false],
      [gate({ source: 'registry', registry: { version: '9.8.7', description: 'quux', distribution: {} } as GateAgent['registry'] }), false],
      [gate({ source: 'registry', installed: { version: '9.8.7', method: 'npx' } }), true],
    ];
    for (const [a, installed] of cases) assertTranslated(whereFound(a, installed), a.command, 'zorbl', '9.8.7', 'howdah.agents', 'ACP', 'PATH');
    assertTranslated(agentPickRow(agentChoice(gate({ source: 'catalog' }), true), '').detail, 'zorbl-acp', 'zorbl', 'PATH');
    const decision = new LimitedRestarts(3, 5 * 60_000).afterCrash({ message: 'quux', exitCode: 1, signal: null, stderrTail: [] }, 0);
    assert.equal(decision.action, 'restart');
    if (decision.action === 'restart') assertTranslated(decision.note, '1', '3', '5');
    const many = Array.from({ length: MAX_PROBLEMS + 2 }, (_, i) => ({ path: 'zorbl.ts', line: i + 1, column: 1, severity: 'error' as const, message: 'quux' }));
    assertTranslated(problemsText(many).split('\n').at(-1)!, '2');
    assertTranslated(UNTITLED);
  });
});
