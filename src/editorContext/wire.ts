import { z } from 'zod';

/**
 * The private channel between the editor-context server script (one per agent session, started by the agent) and
 * the extension host: one JSON message per line over a Unix socket or a Windows named pipe. The script sends a tool
 * call with its session's token; the host answers with the tool's text or an error. Both ends parse what they read.
 * Plain: zod only.
 */

/** The environment variables the host gives the script (through the agent, which starts it). */
export const ENV_SOCKET = 'HOWDAH_EDITOR_CONTEXT_SOCKET';
export const ENV_TOKEN = 'HOWDAH_EDITOR_CONTEXT_TOKEN';

/** A line longer than this is not a message of ours: the connection is dropped. */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

export const ChannelRequest = z.object({ id: z.number().int(), token: z.string(), tool: z.string(), args: z.unknown() });
export type ChannelRequest = z.infer<typeof ChannelRequest>;

export const ChannelResponse = z.union([
  z.object({ id: z.number().int(), text: z.string(), isError: z.boolean().optional() }),
  z.object({ id: z.number().int(), error: z.string() }),
]);
export type ChannelResponse = z.infer<typeof ChannelResponse>;

/** Splits a stream of chunks into lines; `onLine` gets each complete one, `onOverflow` a line past the limit. */
export function lineSplitter(onLine: (line: string) => void, onOverflow: () => void): (chunk: string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk;
    let at: number;
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      if (line.trim()) onLine(line);
    }
    if (pending.length > MAX_LINE_CHARS) {
      pending = '';
      onOverflow();
    }
  };
}

/** A line of JSON parsed with `schema`, or undefined when it is not one. */
export function parseLine<T>(schema: z.ZodType<T>, line: string): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
