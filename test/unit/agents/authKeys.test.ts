import { strict as assert } from 'node:assert';
import { InitializeResult } from '../../../src/acp/schema/agentMethods';
import { authenticateParams, takesKey } from '../../../src/agents/authKeys';

// Gemini CLI 0.61.0's `initialize` answer (authMethods as sent; the rest trimmed).
const gemini = InitializeResult.parse({
  protocolVersion: 1,
  authMethods: [
    { id: 'oauth-personal', name: 'Log in with Google', description: 'Log in with your Google account' },
    { id: 'gemini-api-key', name: 'Gemini API key', description: 'Use an API key with Gemini Developer API', _meta: { 'api-key': { provider: 'google' } } },
    { id: 'vertex-ai', name: 'Vertex AI', description: 'Use an API key with Vertex AI GenAI API' },
    { id: 'gateway', name: 'AI API Gateway', description: 'Use a custom AI API Gateway', _meta: { gateway: { protocol: 'google', restartRequired: 'false' } } },
  ],
  agentInfo: { name: 'gemini-cli', title: 'Gemini CLI', version: '0.61.0' },
});

describe('sign-in methods that take a key', () => {
  it("Gemini's \"Gemini API key\" takes the key in authenticate's _meta[\"api-key\"]; its other methods take none", () => {
    const [google, apiKey, vertex, gateway] = gemini.authMethods;
    assert.deepEqual([google, apiKey, vertex, gateway].map(takesKey), [false, true, false, false]);
    assert.deepEqual(authenticateParams(apiKey, 'AIza-typed-by-the-user'), { methodId: 'gemini-api-key', _meta: { 'api-key': 'AIza-typed-by-the-user' } });
    assert.deepEqual(authenticateParams(google), { methodId: 'oauth-personal' });
    // a key is only sent to a method that asked for one
    assert.deepEqual(authenticateParams(gateway, 'AIza-typed-by-the-user'), { methodId: 'gateway' });
  });

  it('a terminal method or a malformed api-key marker never takes a key', () => {
    const [terminal, odd] = InitializeResult.parse({
      protocolVersion: 1,
      authMethods: [
        { id: 'login', name: 'Log in', type: 'terminal', _meta: { 'api-key': { provider: 'x' } } },
        { id: 'odd', name: 'Odd', _meta: { 'api-key': true } },
      ],
    }).authMethods;
    assert.equal(takesKey(terminal), false);
    assert.equal(takesKey(odd), false);
  });
});
