// A scripted model server for real agents run offline: Node http on 127.0.0.1, a free port. Each test
// scripts the model's side of a turn as a list of steps; the agent under test talks to it as if it were its
// model provider. The wire format of each provider is a "dialect" module (dialects/anthropic.mjs: the
// Anthropic Messages API with SSE streaming); OpenAI Responses / Chat Completions or Gemini generateContent
// are further dialects with the same shape, added to `dialects` without touching this file.
//
// A step is what the model "says" in one response:
//   { text: 'answer' }                                   a text answer that ends the turn
//   { tool: { name: 'Read', input: { file_path } } }     one tool call (the turn goes on with its result)
//   { text: 'first I look', tool: {...} }                 text, then a tool call
//   { text: 'partial', stall: true }                      text, then the response hangs until the agent closes
//                                                         it (a turn cancelled while the model "talks")
//   (request) => step                                     decided from the normalized request
// `name` may be a bare tool name; the dialect maps it to the agent's own spelling (an MCP-prefixed one,
// for example) from the request's tool list.
//
// Which step answers a request: the number of model replies already in the request's conversation since the
// user's last prompt (so a retried request gets the same step again). Requests that offer no tools (titles,
// summaries, the agent's own side questions) are "side" requests and get `sideText`.
import http from 'node:http';
import { anthropic } from './dialects/anthropic.mjs';

/**
 * @typedef {{ dialect: string, path: string, model?: string, stream: boolean, toolNames: string[],
 *   prompt: string, replies: number, toolResults: { id: string, text: string }[], body: any }} ModelRequest
 */

/** Starts the server; resolves to { url, port, script, requests, close }. */
export async function startModelServer({ dialects = [anthropic], sideText = 'OK', log = () => {} } = {}) {
  let steps = [];
  /** @type {ModelRequest[]} */
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try { body = raw ? JSON.parse(raw) : {}; } catch { body = {}; }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/' && (req.method === 'HEAD' || req.method === 'GET')) {
      // a reachability check (Claude Code sends HEAD / before its first request)
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'GET' ? 'scripted model server' : undefined);
      return;
    }
    const dialect = dialects.find(d => d.matches(req.method ?? 'GET', url.pathname));
    if (!dialect) {
      log(`model server: ${req.method} ${url.pathname} → 404`);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no dialect serves ${url.pathname}` } }));
      return;
    }
    try {
      const request = { dialect: dialect.name, path: url.pathname, ...dialect.parse(url.pathname, body) };
      requests.push(request);
      if (request.kind === 'other') {
        dialect.other(url.pathname, body, res);
        return;
      }
      const side = request.toolNames.length === 0;
      let step = side ? { text: sideText } : steps[request.replies];
      if (typeof step === 'function') step = step(request);
      if (!step) step = { text: `(the script has no step ${request.replies} for ${JSON.stringify(request.prompt.slice(0, 60))})` };
      log(`model server: ${url.pathname} ${side ? 'side' : `step ${request.replies}`} → ${step.tool ? `tool ${step.tool.name}` : 'text'}`);
      await dialect.respond(request, step, res);
    } catch (e) {
      log(`model server: ${url.pathname} failed: ${e?.stack ?? e}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(e) } }));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** Replaces the script the next turn follows. */
    script(next) { steps = next; },
    requests,
    /** The main (tool-offering) requests seen so far. */
    mainRequests: () => requests.filter(r => r.kind !== 'other' && r.toolNames.length > 0),
    close: () => new Promise(resolve => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
