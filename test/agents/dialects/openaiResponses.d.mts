// Types of openaiResponses.mjs for the TypeScript tests.
import type { Dialect } from '../modelServer.mjs';

/** The OpenAI Responses API (POST <base_url>/responses, SSE) as Codex uses it. */
export const openaiResponses: Dialect;
