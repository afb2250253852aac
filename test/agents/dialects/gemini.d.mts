// Types of gemini.mjs for the TypeScript tests.
import type { Dialect } from '../modelServer.mjs';

/** The Gemini API (v1beta generateContent / streamGenerateContent / countTokens) as Gemini CLI uses it. */
export const gemini: Dialect;
