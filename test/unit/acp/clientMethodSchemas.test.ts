import { strict as assert } from 'node:assert';
import { ElicitationParams } from '../../../src/acp/schema/clientMethods';

describe('schemas of the methods agents call on Howdah', () => {
  it('an elicitation whose requestId is null (a valid RequestId) parses, keeping the null', () => {
    const parsed = ElicitationParams.safeParse({ message: 'Sign in', mode: 'url', elicitationId: 'e', url: 'https://example.com', requestId: null });
    assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
    assert.equal(parsed.data.requestId, null);
    assert.equal(ElicitationParams.safeParse({ message: 'm', mode: 'form', requestId: {} }).success, false, 'an id that is no RequestId still fails');
  });
});
