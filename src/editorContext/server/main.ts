import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TOOL_DESCRIPTIONS, TOOL_INPUTS, TOOL_NAMES } from '../tools';
import { ENV_SOCKET, ENV_TOKEN } from '../wire';
import { HostLink } from './hostLink';

/**
 * The editor-context MCP server (bundled as out/editorContextServer.js): the agent starts it over stdio, with the
 * extension host's own Node (ELECTRON_RUN_AS_NODE), for one Howdah session. A thin relay: it advertises the tools and
 * forwards each call, with the session's token, to the host, which answers from VS Code. It exits when the agent
 * closes its stdin (the agent stopped).
 */

const address = process.env[ENV_SOCKET];
const token = process.env[ENV_TOKEN];
if (!address || !token) {
  process.stderr.write(`howdah editor context: ${ENV_SOCKET} and ${ENV_TOKEN} must be set (Howdah sets them for its agents).\n`);
  process.exit(2);
}
// Not inherited further: nothing this process starts should see the session's token.
delete process.env[ENV_TOKEN];

const link = new HostLink(address, token);
const server = new McpServer({ name: 'howdah', version: '1.0.0' }, { instructions: 'The user\'s VS Code editor: unsaved text, selections, problems and language-server navigation.' });
for (const name of TOOL_NAMES) {
  server.registerTool(name, { description: TOOL_DESCRIPTIONS[name], inputSchema: TOOL_INPUTS[name], annotations: { readOnlyHint: true, openWorldHint: false } }, async (args: unknown) => {
    const answer = await link.call(name, args);
    return { content: [{ type: 'text' as const, text: answer.text }], isError: answer.isError };
  });
}

const transport = new StdioServerTransport();
transport.onclose = () => {
  link.close();
  process.exit(0);
};
process.stdin.on('end', () => {
  link.close();
  process.exit(0);
});
void server.connect(transport);
