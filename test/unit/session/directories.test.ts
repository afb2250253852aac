import { strict as assert } from 'node:assert';
import { AgentCapabilities } from '../../../src/acp/schema/agentMethods';
import { additionalDirectories, withDirectories } from '../../../src/session/directories';

const caps = (sessionCapabilities: Record<string, unknown>) => AgentCapabilities.parse({ sessionCapabilities });

describe('additionalDirectories: the other folders, only for agents that support them', () => {
  it('is the roots without cwd, each once, in order', () => {
    assert.deepEqual(additionalDirectories('/w/a', ['/w/a', '/w/b', '/w/c', '/w/b']), ['/w/b', '/w/c']);
    assert.deepEqual(additionalDirectories('/w/a', ['/w/a']), []);
  });

  it('is sent only when sessionCapabilities.additionalDirectories is advertised ({}), and then even when empty', () => {
    const params = { cwd: '/w/a', mcpServers: [] };
    assert.deepEqual(withDirectories(params, caps({ additionalDirectories: {} }), ['/w/a', '/w/b']), { cwd: '/w/a', mcpServers: [], additionalDirectories: ['/w/b'] });
    assert.deepEqual(withDirectories(params, caps({ additionalDirectories: {} }), ['/w/a']), { cwd: '/w/a', mcpServers: [], additionalDirectories: [] });
    for (const absent of [caps({}), caps({ additionalDirectories: null }), undefined]) {
      assert.deepEqual(withDirectories(params, absent, ['/w/a', '/w/b']), params);
    }
  });

  it('with cwd, is exactly the set of roots given (what the sandbox confines to)', () => {
    const roots = ['/w/a', '/x/y', '/w/b'];
    const sent = withDirectories({ cwd: '/w/a' }, caps({ additionalDirectories: {} }), roots);
    assert.deepEqual(new Set([sent.cwd, ...(sent.additionalDirectories ?? [])]), new Set(roots));
  });
});
