import { strict as assert } from 'node:assert';
import type { AgentConnection } from '../../../src/acp/agentConnection';
import { ConnectionClosedError, ErrorCode, RpcError } from '../../../src/acp/errors';
import { during, lastLines, markStep, toStartFailure } from '../../../src/agents/startFailure';

const agent = { id: 'fake', name: 'Fake' };
const connectionWith = (stderr: string[]) => ({ process: { stderrTail: () => stderr } }) as unknown as AgentConnection;

describe('start failures: what the panel says when an agent cannot start', () => {
  it('a session/new error: the step and code in our words, its message as the agent\'s, its stderr', async () => {
    const connection = connectionWith(['fake-agent: \u001b[31merror:\u001b[0m model unavailable', 'fake-agent: fix it']);
    const error = await during('session/new', connection, () => Promise.reject(new RpcError(ErrorCode.internalError, 'Internal error: <b>no</b>'))).catch((e: unknown) => e);
    const failure = toStartFailure(agent, error);
    assert.deepEqual({ ...failure, id: undefined }, {
      id: undefined,
      agentId: 'fake',
      agentName: 'Fake',
      step: 'session/new',
      message: 'session/new failed (error -32603).',
      agentMessage: 'Internal error: <b>no</b>',
      stderr: ['fake-agent: error: model unavailable', 'fake-agent: fix it'],
      signIn: false,
    });
    assert.notEqual(toStartFailure(agent, error).id, failure.id, 'each failure has its own id');
  });

  it('the innermost step wins, and a restart names its conversation', () => {
    const error = markStep(markStep(new RpcError(ErrorCode.internalError, 'locked'), 'session/load'), 'session/new');
    const failure = toStartFailure(agent, error, 's-1');
    assert.equal(failure.step, 'session/load');
    assert.equal(failure.sessionKey, 's-1');
  });

  it('an exit during initialize and a program that could not be spawned say so, with the stderr the error carries', () => {
    const exited = markStep(new ConnectionClosedError('Fake exited with code 1. Last output:\nno config', 1, null, ['no config']), 'initialize');
    assert.deepEqual([toStartFailure(agent, exited).message, toStartFailure(agent, exited).stderr], ['Fake exited with code 1 during initialize.', ['no config']]);
    const spawn = markStep(new ConnectionClosedError('Fake could not be started', null, null, ['ENOENT: spawn /nope ENOENT']), 'initialize');
    assert.equal(toStartFailure(agent, spawn).message, 'Fake could not be started.');
    const missing = markStep(new Error('Fake is not installed: the command "fake-acp" was not found'), 'spawn');
    assert.equal(toStartFailure(agent, missing).message, 'Fake is not installed: the command "fake-acp" was not found');
  });

  it('offers Sign in for "authentication required" and for a sign-in that did not happen', () => {
    const required = markStep(new RpcError(ErrorCode.authRequired, 'Authentication required'), 'session/new');
    assert.deepEqual([toStartFailure(agent, required).signIn, toStartFailure(agent, required).agentMessage], [true, 'Authentication required']);
    const cancelled = markStep(new Error('Signing in to Fake was cancelled.'), 'authenticate');
    assert.deepEqual([toStartFailure(agent, cancelled).signIn, toStartFailure(agent, cancelled).message], [true, 'Signing in to Fake was cancelled.']);
    assert.equal(toStartFailure(agent, markStep(new RpcError(-32602, 'bad'), 'initialize')).signIn, false);
  });

  it('keeps at most 20 lines and 4 KB of stderr, newest last, escapes removed', () => {
    const many = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    assert.deepEqual(lastLines(many), many.slice(-20));
    const long = ['old', 'x'.repeat(5000), 'newest \u001b[1mbold\u001b[0m'];
    const kept = lastLines(long);
    assert.equal(kept.length, 2);
    assert.equal(kept[1], 'newest bold');
    assert.equal(kept.join('').length, 4096);
    assert.ok(kept[0].startsWith('…x'));
  });
});
