// Types of openaiChat.mjs for the TypeScript tests.
import type { Dialect } from '../modelServer.mjs';

/** OpenAI Chat Completions: POST /v1/chat/completions (SSE or JSON), GET /v1/models. */
export const openaiChat: Dialect;
