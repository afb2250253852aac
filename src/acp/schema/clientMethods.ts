import { z } from 'zod';
import { list, Meta, openEnum, opt } from './lenient';
import { ToolCallUpdate } from './toolCall';

/** Params of the methods the agent calls on us (DIGEST §12, §17–§19): parsed strictly where we must act on them. */

export const PermissionOption = z.looseObject({
  optionId: z.string(),
  name: z.string(),
  kind: openEnum(['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const),
  _meta: Meta,
});
export type PermissionOption = z.output<typeof PermissionOption>;
export const RequestPermissionParams = z.looseObject({ sessionId: z.string(), toolCall: ToolCallUpdate, options: list(PermissionOption), _meta: Meta });
export type RequestPermissionParams = z.output<typeof RequestPermissionParams>;
export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

const uint = z.number().int().nonnegative();
export const ReadTextFileParams = z.looseObject({ sessionId: z.string(), path: z.string(), line: opt(uint), limit: opt(uint), _meta: Meta });
export const WriteTextFileParams = z.looseObject({ sessionId: z.string(), path: z.string(), content: z.string(), _meta: Meta });
export type ReadTextFileParams = z.output<typeof ReadTextFileParams>;
export type WriteTextFileParams = z.output<typeof WriteTextFileParams>;

export const EnvVariable = z.looseObject({ name: z.string(), value: z.string() });
export const CreateTerminalParams = z.looseObject({
  sessionId: z.string(),
  command: z.string(),
  args: opt(z.array(z.string())),
  env: opt(z.array(EnvVariable)),
  cwd: opt(z.string()),
  outputByteLimit: opt(uint),
  _meta: Meta,
});
export const TerminalParams = z.looseObject({ sessionId: z.string(), terminalId: z.string(), _meta: Meta });
export type CreateTerminalParams = z.output<typeof CreateTerminalParams>;
export type TerminalParams = z.output<typeof TerminalParams>;
export interface TerminalExitStatus {
  exitCode?: number | null;
  signal?: string | null;
}

export const ElicitationParams = z.looseObject({
  message: z.string(),
  mode: z.string(),
  sessionId: opt(z.string()),
  toolCallId: opt(z.string()),
  // RequestId allows null (JSON-RPC's); the router treats null and absent alike (no request scope).
  requestId: z.union([z.string(), z.number()]).nullish(),
  requestedSchema: z.unknown().optional(),
  elicitationId: opt(z.string()),
  url: opt(z.string()),
  _meta: Meta,
});
export type ElicitationParams = z.output<typeof ElicitationParams>;
export type ElicitationResult = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
