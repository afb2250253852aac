// The Anthropic Messages API as Claude Code uses it: POST /v1/messages (streamed as server-sent events when
// `stream` is true, one JSON message otherwise) and POST /v1/messages/count_tokens.
// https://docs.anthropic.com/en/api/messages-streaming describes the event sequence produced here:
// message_start, per block content_block_start / content_block_delta* / content_block_stop, message_delta
// (stop_reason, usage), message_stop.
import { pieces, stallUntilClosed } from './stream.mjs';

let seq = 0;

/** Text of a message's content (string or blocks), tool results left out. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter(b => b?.type === 'text').map(b => b.text).join('');
}

function resultText(block) {
  if (typeof block.content === 'string') return block.content;
  return Array.isArray(block.content) ? block.content.map(c => c.text ?? '').join('') : '';
}

/** Maps a bare tool name to the spelling the agent offered (`Read` may be `mcp__acp__Read`). */
function toolName(name, offered) {
  if (offered.includes(name)) return name;
  return offered.find(t => t.endsWith(`__${name}`)) ?? name;
}

export const anthropic = {
  name: 'anthropic',
  matches: (method, path) => method === 'POST' && /\/v1\/messages(\/count_tokens)?$/.test(path),

  parse(path, body) {
    if (path.endsWith('/count_tokens')) return { kind: 'other', toolNames: [], prompt: '', replies: 0, toolResults: [], body };
    const messages = Array.isArray(body.messages) ? body.messages : [];
    // the user's last prompt: the last user message with text that is not only tool results
    let last = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      const blocks = Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }];
      if (m.role === 'user' && !blocks.some(b => b?.type === 'tool_result') && textOf(m.content).trim()) { last = i; break; }
    }
    const after = messages.slice(last + 1);
    const toolResults = after.filter(m => m.role === 'user' && Array.isArray(m.content))
      .flatMap(m => m.content.filter(b => b?.type === 'tool_result').map(b => ({ id: b.tool_use_id, text: resultText(b), isError: !!b.is_error })));
    return {
      kind: 'messages',
      model: body.model,
      stream: body.stream === true,
      toolNames: (body.tools ?? []).map(t => t.name).filter(Boolean),
      prompt: last >= 0 ? textOf(messages[last].content) : '',
      replies: after.filter(m => m.role === 'assistant').length,
      toolResults,
      body,
    };
  },

  other(_path, body, res) {
    // count_tokens: a rough count is enough
    const tokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: tokens }));
  },

  async respond(request, step, res) {
    const id = `msg_test_${++seq}`;
    const blocks = [];
    if (step.text) blocks.push({ type: 'text', text: step.text });
    for (const t of step.tools ?? (step.tool ? [step.tool] : [])) {
      blocks.push({ type: 'tool_use', id: t.id ?? `toolu_test_${++seq}`, name: toolName(t.name, request.toolNames), input: t.input ?? {} });
    }
    const stopReason = blocks.some(b => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const outputTokens = Math.ceil(JSON.stringify(blocks).length / 4);
    const usage = { input_tokens: Math.ceil(JSON.stringify(request.body.messages ?? []).length / 4), output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const model = request.model ?? 'claude-test';
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': id });
      res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': id });
    const send = (event, data) => new Promise(resolve => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`, () => resolve()));
    await send('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
    await send('ping', {});
    for (const [index, b] of blocks.entries()) {
      if (b.type === 'text') {
        await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const p of pieces(b.text)) await send('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
      } else {
        await send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        for (const p of pieces(JSON.stringify(b.input), 20)) await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
      }
      if (step.stall) {
        // the model is "still talking": nothing more until the agent closes the request (a cancelled turn)
        await stallUntilClosed(res);
        res.end();
        return;
      }
      await send('content_block_stop', { index });
    }
    await send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
    await send('message_stop', {});
    res.end();
  },
};
