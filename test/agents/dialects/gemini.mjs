// The Gemini API (generativelanguage, v1beta) as Gemini CLI uses it through @google/genai:
// POST /v1beta/models/<model>:streamGenerateContent?alt=sse (server-sent events: one `data: <GenerateContentResponse>`
// per chunk), POST …:generateContent (one JSON response; Gemini CLI's side questions) and POST …:countTokens.
// A conversation is `contents`: { role: 'user' | 'model', parts: [{ text } | { functionCall: { name, args, id } } |
// { functionResponse: { name, id, response } }] }; the tools offered are `tools[].functionDeclarations[].name`.
// https://ai.google.dev/api/generate-content describes the shapes produced here.
import { pieces, stallUntilClosed } from './stream.mjs';

let seq = 0;

const PATH = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

const textOf = (content) => (content?.parts ?? []).filter(p => typeof p?.text === 'string' && !p.thought).map(p => p.text).join('');
// Gemini CLI sends its environment (date, OS, folder tree) as the first part of the first user turn, before the
// user's words: `<session_context>…</session_context>`. It is not the prompt.
const promptOf = (content) => (content?.parts ?? []).filter(p => typeof p?.text === 'string' && !p.thought && !p.text.startsWith('<session_context>')).map(p => p.text).join('');
const hasFunctionResponse = (content) => (content?.parts ?? []).some(p => p?.functionResponse);

/** The text a tool result carries: Gemini CLI sends `{ output }` or `{ error }` (sometimes both), else any JSON. */
function resultText(response) {
  if (response == null) return '';
  if (typeof response === 'string') return response;
  const parts = [response.output, response.error].filter(v => v !== undefined).map(v => (typeof v === 'string' ? v : JSON.stringify(v)));
  return parts.length ? parts.join('\n') : JSON.stringify(response);
}

/** Maps a bare tool name to the spelling the agent offered (case-insensitively: `Read` may be `read_file`'s caller's guess). */
function toolName(name, offered) {
  if (offered.includes(name)) return name;
  return offered.find(t => t.toLowerCase() === name.toLowerCase()) ?? name;
}

export const gemini = {
  name: 'gemini',
  matches: (method, path) => method === 'POST' && PATH.test(path),

  parse(path, body) {
    const [, , model, action] = PATH.exec(path) ?? [];
    if (action === 'countTokens') return { kind: 'other', model, stream: false, toolNames: [], prompt: '', replies: 0, toolResults: [], body };
    const contents = Array.isArray(body.contents) ? body.contents : [];
    // the user's last prompt: the last user turn with text that is not only function responses
    let last = -1;
    for (let i = contents.length - 1; i >= 0; i--) {
      const c = contents[i];
      if ((c.role ?? 'user') === 'user' && !hasFunctionResponse(c) && textOf(c).trim()) { last = i; break; }
    }
    const after = contents.slice(last + 1);
    const toolResults = after.filter(c => (c.role ?? 'user') === 'user').flatMap(c => (c.parts ?? []).filter(p => p?.functionResponse).map(p => {
      const r = p.functionResponse;
      return { id: r.id ?? r.name, name: r.name, text: resultText(r.response), isError: r.response?.error !== undefined };
    }));
    const tools = Array.isArray(body.tools) ? body.tools : [];
    return {
      kind: action,
      model,
      stream: action === 'streamGenerateContent',
      toolNames: tools.flatMap(t => (t.functionDeclarations ?? []).map(f => f.name)).filter(Boolean),
      prompt: last >= 0 ? promptOf(contents[last]) : '',
      replies: after.filter(c => c.role === 'model').length,
      toolResults,
      body,
    };
  },

  other(_path, body, res) {
    // countTokens: a rough count is enough
    const totalTokens = Math.ceil(JSON.stringify(body.contents ?? body.generateContentRequest?.contents ?? []).length / 4);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens }));
  },

  async respond(request, step, res) {
    const responseId = `resp_test_${++seq}`;
    const calls = (step.tools ?? (step.tool ? [step.tool] : [])).map(t => ({
      functionCall: { id: t.id ?? `call_test_${++seq}`, name: toolName(t.name, request.toolNames), args: t.input ?? {} },
    }));
    const promptTokenCount = Math.ceil(JSON.stringify(request.body.contents ?? []).length / 4);
    const candidatesTokenCount = Math.ceil(((step.text ?? '').length + JSON.stringify(calls).length) / 4);
    const usageMetadata = { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount };
    const modelVersion = request.model ?? 'gemini-test';
    const chunk = (parts, finishReason, usage) => ({
      candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
      ...(usage ? { usageMetadata: usage } : {}),
      modelVersion,
      responseId,
    });
    if (!request.stream) {
      const parts = [...(step.text ? [{ text: step.text }] : []), ...calls];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chunk(parts.length ? parts : [{ text: '' }], 'STOP', usageMetadata)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data) => new Promise(resolve => res.write(`data: ${JSON.stringify(data)}\r\n\r\n`, () => resolve()));
    const early = { promptTokenCount, totalTokenCount: promptTokenCount };
    if (step.text) for (const p of pieces(step.text)) await send(chunk([{ text: p }], undefined, early));
    if (step.stall) {
      // the model is "still talking": nothing more until the agent closes the request (a cancelled turn)
      await stallUntilClosed(res);
      res.end();
      return;
    }
    // Gemini sends a turn's function calls whole, in the last chunk, with finishReason STOP (there is no
    // "tool_use" finish reason in this API); a text-only turn ends with an empty text part and STOP.
    await send(chunk(calls.length ? calls : [{ text: '' }], 'STOP', usageMetadata));
    res.end();
  },
};
