import { strict as assert } from 'node:assert';
import { SessionUpdate } from '../../../src/acp/schema/sessionUpdate';
import { TAIL_LIMIT, TerminalTails } from '../../../src/panel/terminalTails';
import { SessionState } from '../../../src/session/sessionState';

describe('panel terminal tails from _meta', () => {
  const setup = () => {
    const state = new SessionState();
    const tails = new TerminalTails(state);
    const apply = (u: Record<string, unknown>) => state.apply(SessionUpdate.parse(u));
    return { state, tails, apply };
  };

  it('collects each terminal_output piece once and the exit status', () => {
    const { tails, apply } = setup();
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'npm test', kind: 'execute', content: [{ type: 'terminal', terminalId: 't1' }], _meta: { terminal_info: { terminal_id: 't1' } } });
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', _meta: { terminal_output: { terminal_id: 't1', data: 'one\n' } } });
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', _meta: { terminal_output: { terminal_id: 't1', data: 'two\n' } } });
    // An update without output keeps the last piece in _meta: it must not be counted again.
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', status: 'completed', _meta: { terminal_exit: { terminal_id: 't1', exit_code: 2, signal: null } } });
    assert.deepEqual(tails.get('t1'), { output: 'one\ntwo\n', truncated: false, exit: { code: 2, signal: null } });
  });

  it('keeps only the tail of long output', () => {
    const { tails, apply } = setup();
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'yes', kind: 'execute' });
    for (let i = 0; i < 10; i++) apply({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', _meta: { terminal_output: { terminal_id: 't', data: 'y'.repeat(TAIL_LIMIT / 4) } } });
    const tail = tails.get('t')!;
    assert.equal(tail.output.length, TAIL_LIMIT);
    assert.equal(tail.truncated, true);
  });

  it('stops listening when disposed', () => {
    const { tails, apply } = setup();
    tails.dispose();
    apply({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'x', _meta: { terminal_output: { terminal_id: 't', data: 'z' } } });
    assert.equal(tails.get('t'), undefined);
  });
});
