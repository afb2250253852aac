import type { AuthMethod } from '../acp/schema/agentMethods';

/**
 * Sign-in methods that take a key the user types. Gemini CLI (0.61) offers "Gemini API key" as an `agent` method with
 * `_meta: { "api-key": { provider } }` and reads the key from the `authenticate` request's `_meta["api-key"]`; without
 * one, `authenticate` succeeds and the next `session/new` still answers "Gemini API key is missing" — a sign-in that
 * can never succeed. No vscode here: the unit tests check it.
 */
export function takesKey(method: AuthMethod): boolean {
  const wanted = method._meta?.['api-key'];
  return method.type === 'agent' && typeof wanted === 'object' && wanted !== null;
}

/** The `authenticate` params for `method`, with the key where the agent reads it. */
export function authenticateParams(method: AuthMethod, key?: string): { methodId: string; _meta?: Record<string, unknown> } {
  return takesKey(method) && key ? { methodId: method.id, _meta: { 'api-key': key } } : { methodId: method.id };
}
