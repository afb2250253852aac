// The OpenAI Chat Completions API as OpenAI-compatible providers speak it (OpenCode's `@ai-sdk/openai-compatible`
// provider): POST /v1/chat/completions — streamed as server-sent events `data: {chat.completion.chunk}` when
// `stream` is true, ending with `data: [DONE]` (a usage chunk with empty `choices` first when
// `stream_options.include_usage` asks for it); one `chat.completion` JSON otherwise — and GET /v1/models.
// Text streams as `delta.content`; a tool call as `delta.tool_calls[{ index, id, type, function: { name,
// arguments: '' } }]` followed by argument pieces `delta.tool_calls[{ index, function: { arguments } }]`; the
// last choice chunk has `finish_reason` `tool_calls` or `stop`. Tool results come back as `role: "tool"`
// messages (`tool_call_id`, `content`); the API has no error flag for them, so `isError` is always false and a
// test reads the result's text.
import { pieces, stallUntilClosed } from './stream.mjs';

let seq = 0;

/** Text of a message's content: a string or an array of parts ({ type: 'text', text }). */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(p => (typeof p === 'string' ? p : p?.type === 'text' || typeof p?.text === 'string' ? p.text ?? '' : '')).join('');
}

/** Maps a bare tool name to the agent's spelling: exact, then case-insensitive (`Read` → `read`), then a prefixed one. */
function toolName(name, offered) {
  if (offered.includes(name)) return name;
  return offered.find(t => t.toLowerCase() === name.toLowerCase())
    ?? offered.find(t => t.endsWith(`__${name}`) || t.endsWith(`_${name}`))
    ?? name;
}

const estimate = (value) => Math.ceil(JSON.stringify(value ?? '').length / 4);

export const openaiChat = {
  name: 'openai-chat',
  matches: (method, path) => (method === 'POST' && /\/v1\/chat\/completions$/.test(path)) || (method === 'GET' && /\/v1\/models$/.test(path)),

  parse(path, body) {
    if (path.endsWith('/models')) return { kind: 'other', toolNames: [], prompt: '', replies: 0, toolResults: [], stream: false, body };
    const messages = Array.isArray(body.messages) ? body.messages : [];
    // the user's last prompt: the last user message with text
    let last = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'user' && textOf(messages[i].content).trim()) { last = i; break; }
    }
    const after = messages.slice(last + 1);
    return {
      kind: 'chat',
      model: body.model,
      stream: body.stream === true,
      toolNames: (body.tools ?? []).map(t => t?.function?.name).filter(Boolean),
      prompt: last >= 0 ? textOf(messages[last].content) : '',
      replies: after.filter(m => m.role === 'assistant').length,
      toolResults: after.filter(m => m.role === 'tool').map(m => ({ id: m.tool_call_id, text: textOf(m.content), isError: false })),
      body,
    };
  },

  other(_path, body, res) {
    // GET /v1/models: whichever model the agent was configured with is fine; list one
    res.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: body?.model ?? 'howdah-test', object: 'model', created: 0, owned_by: 'howdah' }] }));
  },

  async respond(request, step, res) {
    const id = `chatcmpl-test-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const model = request.model ?? 'howdah-test';
    const calls = (step.tools ?? (step.tool ? [step.tool] : [])).map(t => ({
      id: t.id ?? `call_test_${++seq}`, type: 'function',
      function: { name: toolName(t.name, request.toolNames), arguments: JSON.stringify(t.input ?? {}) },
    }));
    const finish = calls.length ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: estimate(request.body.messages), completion_tokens: estimate([step.text, calls]), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!request.stream) {
      const message = { role: 'assistant', content: step.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const write = (line) => new Promise(resolve => res.write(`data: ${line}\n\n`, () => resolve()));
    const chunk = (delta, finishReason = null) => write(JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] }));
    await chunk({ role: 'assistant', content: '' });
    if (step.text) for (const p of pieces(step.text)) await chunk({ content: p });
    for (const [index, c] of calls.entries()) {
      await chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
      for (const p of pieces(c.function.arguments, 20)) await chunk({ tool_calls: [{ index, function: { arguments: p } }] });
    }
    if (step.stall) {
      // the model is "still talking": nothing more until the agent closes the request (a cancelled turn)
      await stallUntilClosed(res);
      res.end();
      return;
    }
    await chunk({}, finish);
    if (request.body.stream_options?.include_usage) {
      await write(JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage }));
    }
    await write('[DONE]');
    res.end();
  },
};
