// The OpenAI Responses API as Codex (codex-acp) uses it: POST <base_url>/responses, always streamed as
// server-sent events. Codex builds each output item from `response.output_item.done` and streams text from
// `response.output_text.delta`; a response that ends without `response.completed` is an error it retries.
// Event sequence produced here (https://platform.openai.com/docs/api-reference/responses-streaming):
// response.created, response.in_progress, per output item response.output_item.added / deltas
// (response.output_text.delta, response.function_call_arguments.delta, response.custom_tool_call_input.delta) /
// response.output_item.done, then response.completed with usage.
//
// The request's `input` is the whole conversation (Codex sends `store: false`, never previous_response_id):
// user / developer messages, the model's earlier output items (assistant `message`, `reasoning`,
// `function_call`, `custom_tool_call`) and the tool results (`function_call_output`, `custom_tool_call_output`).
// Codex's shell is a function tool (`shell_command` / `exec_command` / `shell`, depending on the model family); its
// apply_patch is a *custom* (freeform) tool whose input is the patch text — a step may give `input` as that
// string.
import { pieces, stallUntilClosed } from './stream.mjs';

let seq = 0;

const MODEL_ITEMS = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/** Text of a message's content (string or parts). */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(p => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** A tool output: a string, content items, or (older) { content, success }. */
function outputText(output) {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return textOf(output);
  if (output && typeof output === 'object') return typeof output.content === 'string' ? output.content : textOf(output.content ?? output.body);
  return '';
}

/**
 * Codex puts its own context into user-role messages (`<environment_context>`, `<user_instructions>`,
 * AGENTS.md instructions, `<turn_aborted>` markers); the user's prompt is the last user message that is none of those.
 */
function isUserPrompt(item) {
  if (item?.type !== 'message' || item.role !== 'user') return false;
  const text = textOf(item.content).trim();
  return !!text && !/^(<environment_context>|<user_instructions>|<turn_aborted>|# AGENTS\.md instructions)/.test(text);
}

/** The response number the server put into a call id (`call_r<n>_<k>`), if it is one of ours. */
function responseTag(item) {
  const m = /^call_r(\d+)_/.exec(item?.call_id ?? '');
  return m ? m[1] : undefined;
}

/**
 * Model replies in `items`: a reply is a run of model output items; tool outputs between calls of the same
 * response (Codex may record them interleaved) do not split it, recognised by the response number in our call ids.
 */
function countReplies(items) {
  let replies = 0;
  let previousWasModel = false;
  let lastTag;
  for (const item of items) {
    if (MODEL_ITEMS.has(item?.type) && !(item.type === 'message' && item.role !== 'assistant')) {
      const tag = responseTag(item);
      const same = previousWasModel ? !(tag && lastTag && tag !== lastTag) : !!(tag && tag === lastTag);
      if (!same) {
        replies++;
        lastTag = tag;
      } else if (tag) lastTag = tag;
      previousWasModel = true;
    } else {
      previousWasModel = false;
    }
  }
  return replies;
}

/** What the model emits for a tool step: a function call (JSON arguments) or a custom tool call (free text). */
function toolItem(t, request, response, k) {
  const offered = request.tools.find(o => o.name === t.name);
  const call_id = t.id ?? `call_r${response}_${k}`;
  if (offered?.type === 'custom') {
    const input = typeof t.input === 'string' ? t.input : Object.values(t.input ?? {}).find(v => typeof v === 'string') ?? '';
    return { type: 'custom_tool_call', id: `ctc_${response}_${k}`, status: 'completed', call_id, name: t.name, input };
  }
  // A tool inside a namespace is called by its own name, with the namespace beside it.
  const naming = offered?.namespace ? { name: offered.bare, namespace: offered.namespace } : { name: t.name };
  return { type: 'function_call', id: `fc_${response}_${k}`, status: 'completed', call_id, ...naming, arguments: typeof t.input === 'string' ? t.input : JSON.stringify(t.input ?? {}) };
}

export const openaiResponses = {
  name: 'openai-responses',
  matches: (method, path) => (method === 'POST' && /\/responses(\/compact)?$/.test(path)) || (method === 'GET' && /\/v1\/models$/.test(path)),

  parse(path, body) {
    if (!path.endsWith('/responses')) return { kind: 'other', toolNames: [], prompt: '', replies: 0, toolResults: [], body };
    const input = Array.isArray(body.input) ? body.input : typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : [];
    let last = -1;
    for (let i = input.length - 1; i >= 0; i--) if (isUserPrompt(input[i])) { last = i; break; }
    const after = input.slice(last + 1);
    // A `namespace` tool (how Codex offers an MCP server's tools, e.g. `mcp__howdah`) also lists each of its tools as
    // `<namespace>.<tool>`, the name a step uses to call one.
    const tools = (body.tools ?? []).flatMap(t => [
      { type: t.type, name: t.name ?? t.type },
      ...(t.type === 'namespace' && Array.isArray(t.tools) ? t.tools.map(s => ({ type: s.type, name: `${t.name}.${s.name}`, namespace: t.name, bare: s.name })) : []),
    ]);
    return {
      kind: 'responses',
      model: body.model,
      stream: body.stream !== false,
      toolNames: tools.map(t => t.name),
      tools,
      prompt: last >= 0 ? textOf(input[last].content) : '',
      replies: countReplies(after),
      toolResults: after.filter(i => OUTPUT_ITEMS.has(i?.type)).map(i => ({ id: i.call_id, text: outputText(i.output), isError: i.output?.success === false })),
      body,
    };
  },

  other(path, body, res) {
    if (path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [], models: [] }));
      return;
    }
    // /responses/compact: a remote compaction; the scripted model never needs one
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: [] }));
  },

  async respond(request, step, res) {
    const response = ++seq;
    const id = `resp_test_${response}`;
    const items = [];
    if (step.text) items.push({ type: 'message', id: `msg_${response}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: step.text, annotations: [] }] });
    for (const [k, t] of (step.tools ?? (step.tool ? [step.tool] : [])).entries()) items.push(toolItem(t, request, response, k));
    const inputTokens = Math.ceil(JSON.stringify(request.body.input ?? []).length / 4);
    const outputTokens = Math.ceil(JSON.stringify(items).length / 4);
    const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens };
    const model = request.model ?? 'gpt-test';
    const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model };
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...base, status: 'completed', output: items, usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-request-id': id });
    let n = 0;
    const send = (type, data) => new Promise(resolve => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n++, ...data })}\n\n`, () => resolve()));
    await send('response.created', { response: { ...base, status: 'in_progress', output: [] } });
    await send('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
    for (const [output_index, item] of items.entries()) {
      if (item.type === 'message') {
        const text = item.content[0].text;
        await send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
        await send('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of pieces(text)) await send('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta });
        if (step.stall) {
          // the model is "still talking": nothing more until the agent closes the request (a cancelled turn)
          await stallUntilClosed(res);
          res.end();
          return;
        }
        await send('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
        await send('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
      } else if (item.type === 'custom_tool_call') {
        await send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
        for (const delta of pieces(item.input, 40)) await send('response.custom_tool_call_input.delta', { item_id: item.id, output_index, delta });
        await send('response.custom_tool_call_input.done', { item_id: item.id, output_index, input: item.input });
      } else {
        await send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of pieces(item.arguments, 20)) await send('response.function_call_arguments.delta', { item_id: item.id, output_index, delta });
        await send('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
      }
      await send('response.output_item.done', { output_index, item });
    }
    if (step.stall) {
      await stallUntilClosed(res);
      res.end();
      return;
    }
    await send('response.completed', { response: { ...base, status: 'completed', output: items, usage } });
    res.end();
  },
};
