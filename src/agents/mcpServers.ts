import { z } from 'zod';
import type { AgentCapabilities, McpServer } from '../acp/schema/agentMethods';

const NameValue = z.object({ name: z.string(), value: z.string() });
const Stdio = z.object({ name: z.string(), command: z.string(), args: z.array(z.string()).default([]), env: z.array(NameValue).default([]) });
const Remote = z.object({ type: z.enum(['http', 'sse']), name: z.string(), url: z.string(), headers: z.array(NameValue).default([]) });
const Entry = z.union([Remote, Stdio]);

/**
 * `howdah.mcpServers`, passed on session/new, load and resume: stdio servers always (every agent must support them),
 * http and sse only to agents that advertise those transports. Invalid entries are reported, not sent.
 */
export function mcpServersFor(raw: unknown, caps: AgentCapabilities | undefined): { servers: McpServer[]; problems: string[] } {
  const servers: McpServer[] = [];
  const problems: string[] = [];
  if (!Array.isArray(raw)) return { servers, problems: raw === undefined || raw === null ? [] : ['howdah.mcpServers must be a list'] };
  for (const [i, item] of raw.entries()) {
    const parsed = Entry.safeParse(item);
    if (!parsed.success) {
      problems.push(`howdah.mcpServers[${i}]: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
      continue;
    }
    const server = parsed.data;
    if ('type' in server) {
      if (caps?.mcpCapabilities[server.type]) servers.push(server);
      else problems.push(`MCP server "${server.name}" uses ${server.type}, which this agent does not support; not passed on.`);
    } else {
      servers.push(server);
    }
  }
  return { servers, problems };
}
