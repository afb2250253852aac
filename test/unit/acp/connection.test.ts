import { strict as assert } from 'node:assert';
import { buildClientCapabilities, type CapabilitySettings } from '../../../src/acp/capabilities';
import type { ClientHandlers } from '../../../src/acp/clientHandlers';
import { AcpConnection, ProtocolVersionError } from '../../../src/acp/connection';
import type { SessionNotification } from '../../../src/acp/schema/sessionUpdate';
import { MemoryPeer, tick } from '../support/memoryPeer';

function setup(handlers: Partial<ClientHandlers> = {}, settings: CapabilitySettings = { readFiles: false, writeFiles: 'off', terminal: 'off', terminalAuth: false }) {
  const peer = new MemoryPeer();
  const updates: SessionNotification[] = [];
  const called: string[] = [];
  const acp = new AcpConnection(peer.toUs, peer.fromUs, buildClientCapabilities(settings), {
    sessionUpdate: (n) => updates.push(n),
    requestPermission: async () => ({ outcome: 'cancelled' }),
    readTextFile: async () => {
      called.push('read');
      return { content: 'x' };
    },
    ...handlers,
  });
  return { peer, acp, updates, called };
}

async function initialize(peer: MemoryPeer, acp: AcpConnection, result: Record<string, unknown> = { protocolVersion: 1 }) {
  const init = acp.initialize({ name: 'howdah', version: '1.0.0' });
  const req = await peer.next();
  peer.send({ jsonrpc: '2.0', id: req.id, result });
  return { init: await init.catch((e: Error) => e), request: req };
}

describe('ACP connection', () => {
  it('offers protocol version 1 with capabilities built from settings', async () => {
    const { peer, acp } = setup({}, { readFiles: true, writeFiles: 'ask', terminal: 'off', terminalAuth: false });
    const { request } = await initialize(peer, acp);
    const params = request.params as { protocolVersion: number; clientCapabilities: Record<string, unknown>; clientInfo: { name: string } };
    assert.equal(params.protocolVersion, 1);
    assert.deepEqual(params.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
    assert.equal(params.clientCapabilities.terminal, false);
    assert.deepEqual(params.clientCapabilities._meta, { terminal_output: true });
    assert.equal(params.clientInfo.name, 'howdah');
  });

  it('refuses an agent that answers another protocol version', async () => {
    const { peer, acp } = setup();
    const { init } = await initialize(peer, acp, { protocolVersion: 2 });
    assert.ok(init instanceof ProtocolVersionError);
    assert.match((init as Error).message, /version 2.*version 1/);
  });

  it('parses initialize leniently: defaults, unknown fields and a string version', async () => {
    const { peer, acp } = setup();
    const { init } = await initialize(peer, acp, {
      protocolVersion: '1',
      agentCapabilities: { loadSession: 'yes', promptCapabilities: { image: true }, futureThing: { a: 1 } },
      authMethods: [{ id: 'a', name: 'Agent login' }, { id: 't', name: 'Terminal', type: 'terminal', args: ['--login'] }, { bogus: true }],
      agentInfo: { name: 'x', version: '2.0.0' },
    });
    assert.ok(!(init instanceof Error));
    const result = init as Exclude<typeof init, Error>;
    assert.equal(result.agentCapabilities.loadSession, false);
    assert.equal(result.agentCapabilities.promptCapabilities.image, true);
    assert.equal(result.agentCapabilities.promptCapabilities.embeddedContext, false);
    assert.deepEqual((result.agentCapabilities as Record<string, unknown>).futureThing, { a: 1 });
    assert.deepEqual(result.authMethods.map((m) => [m.id, m.type]), [['a', 'agent'], ['t', 'terminal']]);
  });

  it('answers -32601 for fs and terminal methods we did not advertise, before any handler runs', async () => {
    const { peer, acp, called } = setup();
    await initialize(peer, acp);
    for (const [i, method] of ['fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'terminal/output', 'elicitation/create'].entries()) {
      peer.send({ jsonrpc: '2.0', id: 100 + i, method, params: { sessionId: 's', path: '/x', content: '', command: 'ls', terminalId: 't', message: 'm', mode: 'form' } });
      const answer = await peer.next();
      assert.equal((answer.error as { code: number }).code, -32601, method);
    }
    assert.deepEqual(called, []);
  });

  it('runs an advertised method\'s handler and rejects invalid params with -32602', async () => {
    const { peer, acp, called } = setup({}, { readFiles: true, writeFiles: 'off', terminal: 'off', terminalAuth: false });
    await initialize(peer, acp);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's', path: '/w/a.txt' } });
    assert.deepEqual((await peer.next()).result, { content: 'x' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'fs/read_text_file', params: { sessionId: 's' } });
    const bad = await peer.next();
    assert.equal((bad.error as { code: number }).code, -32602);
    assert.match((bad.error as { message: string }).message, /path/);
    assert.deepEqual(called, ['read']);
  });

  it('routes custom _ requests to the extension hook and ignores unknown custom notifications', async () => {
    const seen: string[] = [];
    const { peer, acp } = setup({
      extRequest: async (method) => ({ handled: method }),
      extNotification: (method) => seen.push(method),
    });
    await initialize(peer, acp);
    peer.send({ jsonrpc: '2.0', id: 5, method: '_zed.dev/workspace/buffers', params: {} });
    assert.deepEqual((await peer.next()).result, { handled: '_zed.dev/workspace/buffers' });
    peer.send({ jsonrpc: '2.0', method: '_vendor/ping', params: {} });
    await tick(10);
    assert.deepEqual(seen, ['_vendor/ping']);
  });

  it('keeps unknown update kinds, content types and fields, and _meta, all the way to the handler', async () => {
    const { peer, acp, updates } = setup();
    await initialize(peer, acp);
    const send = (update: unknown) => peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });
    send({ sessionUpdate: 'future_thing', payload: { x: 1 } });
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', beam: 3 }, _meta: { vendor: { k: 'v' } } });
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', extra: 1 }, newField: true });
    send({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Teleport', kind: 'teleport', status: 'exploded', content: [{ type: 'hologram' }, { type: 'text', text: 'bare' }] });
    send({ sessionUpdate: 'agent_message_chunk' });
    send({ sessionUpdate: 'current_mode_update', modeId: 'code' });
    await tick(20);
    assert.equal(updates.length, 6);
    const [future, holo, text, tool, broken, mode] = updates.map((u) => u.update as Record<string, unknown>);
    assert.deepEqual(future, { sessionUpdate: 'unknown', original: 'future_thing', raw: { sessionUpdate: 'future_thing', payload: { x: 1 } } });
    assert.deepEqual((holo.content as Record<string, unknown>).type, 'unknown');
    assert.deepEqual((holo.content as Record<string, unknown>).raw, { type: 'hologram', beam: 3 });
    assert.deepEqual(holo._meta, { vendor: { k: 'v' } });
    assert.equal(text.newField, true);
    assert.equal((text.content as Record<string, unknown>).extra, 1);
    assert.equal(tool.kind, 'teleport');
    assert.equal(tool.status, 'exploded');
    const content = tool.content as Record<string, unknown>[];
    assert.equal(content[0].type, 'unknown');
    assert.deepEqual(content[1], { type: 'content', content: { type: 'text', text: 'bare', annotations: undefined, _meta: undefined }, _meta: undefined });
    assert.equal(broken.sessionUpdate, 'unknown');
    assert.equal(broken.original, 'agent_message_chunk');
    assert.ok(typeof broken.error === 'string');
    assert.equal(mode.currentModeId, 'code');
  });

  it('a permission request\'s handler gets the request\'s own signal (aborted when the agent withdraws it); cancel only sends session/cancel; an option never offered counts as cancelled', async () => {
    const answers: ((o: { outcome: 'selected'; optionId: string }) => void)[] = [];
    const signals: AbortSignal[] = [];
    const { peer, acp } = setup({
      requestPermission: (_params, signal) => {
        signals.push(signal);
        return new Promise((resolve) => {
          answers.push(resolve);
          signal.addEventListener('abort', () => resolve({ outcome: 'selected', optionId: 'ok' }));
        });
      },
    });
    await initialize(peer, acp);
    const options = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }];
    const ask = (id: string) => peer.send({ jsonrpc: '2.0', id, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: id }, options } });
    ask('p1');
    await tick(10);
    await acp.cancel('s1');
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } });
    assert.equal(signals[0].aborted, false, 'the prompt belongs to the session, which answers it when its turn is cancelled');
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'p1' } });
    await tick(10);
    assert.ok(signals[0].aborted, 'withdrawn by the agent: the handler is told');
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', id: 'p1', result: { outcome: { outcome: 'selected', optionId: 'ok' } } });
    ask('p2');
    await tick(10);
    answers[1]({ outcome: 'selected', optionId: 'not-offered' });
    assert.deepEqual(await peer.next(), { jsonrpc: '2.0', id: 'p2', result: { outcome: { outcome: 'cancelled' } } });
  });

  it('a pending permission prompt does not block a file read or the stream', async () => {
    const { peer, acp, updates } = setup(
      { requestPermission: () => new Promise(() => {}) },
      { readFiles: true, writeFiles: 'off', terminal: 'off', terminalAuth: false },
    );
    await initialize(peer, acp);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] } });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'fs/read_text_file', params: { sessionId: 's', path: '/w/x' } });
    peer.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'streaming' } } } });
    const answer = await peer.next();
    assert.equal(answer.id, 2);
    assert.equal(updates.length, 1);
  });

  it('answers a permission request with no options as cancelled, and an invalid UI choice as cancelled', async () => {
    const { peer, acp } = setup({ requestPermission: async () => ({ outcome: 'selected', optionId: 'not-offered' }) });
    await initialize(peer, acp);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] } });
    assert.deepEqual((await peer.next()).result, { outcome: { outcome: 'cancelled' } });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'A', kind: 'allow_once' }] } });
    assert.deepEqual((await peer.next()).result, { outcome: { outcome: 'cancelled' } });
  });

  it('parses results with the method table: null load result, grouped config options, legacy models', async () => {
    const { peer, acp } = setup();
    await initialize(peer, acp, { protocolVersion: 1, agentCapabilities: { loadSession: true } });
    const load = acp.call('loadSession', { sessionId: 's', cwd: '/w', mcpServers: [] });
    peer.send({ jsonrpc: '2.0', id: (await peer.next()).id, result: null });
    assert.deepEqual(await load, {});
    const created = acp.call('newSession', { cwd: '/w', mcpServers: [] });
    peer.send({
      jsonrpc: '2.0',
      id: (await peer.next()).id,
      result: {
        sessionId: 'abc',
        configOptions: [
          { id: 'model', name: 'Model', type: 'select', category: 'model', currentValue: 'b', options: [{ group: 'g', name: 'G', options: [{ value: 'b', name: 'B' }] }] },
          { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true },
          { id: 'weird', name: 'Weird', type: 'slider', currentValue: 3 },
        ],
        models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'M1' }] },
      },
    });
    const result = await created;
    assert.equal(result.sessionId, 'abc');
    assert.deepEqual(result.configOptions?.map((o) => o.id), ['model', 'fast']);
    const model = result.configOptions?.[0];
    assert.ok(model?.type === 'select' && model.options.kind === 'grouped' && model.options.groups[0].options[0].value === 'b');
    assert.equal(result.models?.currentModelId, 'm1');
  });

  it('reports which agent methods are available from the agent\'s capabilities', async () => {
    const { peer, acp } = setup();
    await initialize(peer, acp, { protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, resume: null } } });
    assert.equal(acp.supports('loadSession'), true);
    assert.equal(acp.supports('listSessions'), true);
    assert.equal(acp.supports('resumeSession'), false);
    assert.equal(acp.supports('deleteSession'), false);
    assert.equal(acp.supports('prompt'), true);
  });
});
