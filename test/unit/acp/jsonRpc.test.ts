import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { RpcError } from '../../../src/acp/errors';
import { JsonRpcConnection, type ProtocolWarning, type RpcHandlers } from '../../../src/acp/jsonRpc';
import { MessageWriter } from '../../../src/acp/messageWriter';
import { MemoryPeer, tick } from '../support/memoryPeer';

function connect(handlers: Partial<RpcHandlers> = {}) {
  const peer = new MemoryPeer();
  const warnings: ProtocolWarning[] = [];
  const notifications: [string, unknown][] = [];
  const rpc = new JsonRpcConnection(
    peer.toUs,
    peer.fromUs,
    {
      request: handlers.request ?? (async (method) => Promise.reject(RpcError.methodNotFound(method))),
      notification: handlers.notification ?? ((method, params) => notifications.push([method, params])),
    },
    { warn: (w) => warnings.push(w) },
  );
  return { peer, rpc, warnings, notifications };
}

describe('JSON-RPC connection', () => {
  it('dispose settles every pending request, aborts incoming handlers and removes its stream listeners', async () => {
    let incoming: AbortSignal | undefined;
    const { peer, rpc, notifications } = connect({ request: (_m, _p, { signal }) => ((incoming = signal), new Promise(() => {})) });
    const before = { data: peer.toUs.listenerCount('data'), end: peer.toUs.listenerCount('end') };
    const pending = rpc.request('slow', {});
    peer.send({ jsonrpc: '2.0', id: 'in', method: 'ask', params: {} });
    await tick(10);
    rpc.dispose(new Error('gone'));
    await assert.rejects(pending, /gone/);
    assert.ok(incoming?.aborted);
    assert.equal(rpc.pendingCount, 0);
    assert.deepEqual({ data: peer.toUs.listenerCount('data'), end: peer.toUs.listenerCount('end') }, { data: before.data - 1, end: before.end - 1 });
    peer.send({ jsonrpc: '2.0', method: 'late', params: {} });
    await tick(10);
    assert.deepEqual(notifications, [], 'nothing is read after dispose');
    await assert.rejects(rpc.request('after', {}), /gone/);
  });

  it('matches responses to requests by id, out of order', async () => {
    const { peer, rpc } = connect();
    const a = rpc.request('a', { n: 1 });
    const b = rpc.request('b', { n: 2 });
    const ra = await peer.next();
    const rb = await peer.next();
    assert.equal(ra.method, 'a');
    assert.equal(ra.jsonrpc, '2.0');
    peer.send({ jsonrpc: '2.0', id: rb.id, result: 'B' });
    peer.send({ jsonrpc: '2.0', id: ra.id, result: 'A' });
    assert.deepEqual(await Promise.all([a, b]), ['A', 'B']);
    assert.equal(rpc.pendingCount, 0);
  });

  it('rejects with a typed error carrying code, message and data', async () => {
    const { peer, rpc } = connect();
    const p = rpc.request('session/new', {});
    const req = await peer.next();
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'Authentication required', data: { methods: ['x'] } } });
    await assert.rejects(p, (e: unknown) => e instanceof RpcError && e.code === -32000 && e.message === 'Authentication required' && (e.data as { methods: string[] }).methods[0] === 'x');
  });

  it('answers the peer\'s requests with integer and string ids', async () => {
    const { peer } = connect({ request: async (method, params) => ({ method, params }) });
    peer.send({ jsonrpc: '2.0', id: 7, method: 'x/echo', params: { a: 1 } });
    peer.send({ jsonrpc: '2.0', id: 'req-3f2a', method: 'x/echo', params: { b: 2 } });
    const answers = [await peer.next(), await peer.next()];
    const byId = new Map(answers.map((m) => [m.id, m]));
    assert.deepEqual(byId.get(7)?.result, { method: 'x/echo', params: { a: 1 } });
    assert.deepEqual(byId.get('req-3f2a')?.result, { method: 'x/echo', params: { b: 2 } });
  });

  it('answers -32601 for a method we do not implement', async () => {
    const { peer } = connect();
    peer.send({ jsonrpc: '2.0', id: 1, method: 'nope/never' });
    const answer = await peer.next();
    assert.deepEqual(answer.error, { code: -32601, message: 'Method not found: nope/never' });
  });

  it('answers an invalid JSON line with -32700 and id null, and keeps going', async () => {
    const { peer, warnings, notifications } = connect();
    peer.raw('{"jsonrpc":"2.0",\n');
    peer.send({ jsonrpc: '2.0', method: 'still/alive' });
    const answer = await peer.next();
    assert.equal(answer.id, null);
    assert.equal((answer.error as { code: number }).code, -32700);
    await tick(10);
    assert.deepEqual(notifications.map(([m]) => m), ['still/alive']);
    assert.equal(warnings[0].kind, 'invalid-json');
  });

  it('answers a batch or a non-object with -32600', async () => {
    const { peer } = connect();
    peer.raw('[{"jsonrpc":"2.0","method":"a"}]\n');
    peer.raw('42\n');
    assert.equal(((await peer.next()).error as { code: number }).code, -32600);
    assert.equal(((await peer.next()).error as { code: number }).code, -32600);
  });

  it('warns about a response to an unknown id and drops it', async () => {
    const { peer, warnings } = connect();
    peer.send({ jsonrpc: '2.0', id: 999, result: {} });
    await tick(10);
    assert.equal(warnings[0].kind, 'unknown-response');
    assert.deepEqual(peer.drain(), []);
  });

  it('delivers a notification that arrived before a response before the response resolves', async () => {
    const order: string[] = [];
    const { peer, rpc } = connect({ notification: (m) => order.push(`notification ${m}`) });
    const p = rpc.request('session/prompt', {}).then(() => order.push('response'));
    const req = await peer.next();
    peer.raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { n: 1 } }) +
        '\n' +
        JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'end_turn' } }) +
        '\n' +
        JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { n: 2 } }) +
        '\n',
    );
    await p;
    // The first update was applied before the response settled (the second may or may not be: it came after).
    assert.equal(order[0], 'notification session/update');
    assert.ok(order.indexOf('response') > 0);
  });

  it('handles the peer\'s requests concurrently: a slow one does not block a fast one', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const { peer } = connect({
      request: async (method) => {
        if (method === 'slow') await slow;
        return method;
      },
    });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'fast' });
    const first = await peer.next();
    assert.equal(first.id, 2);
    release();
    assert.equal((await peer.next()).id, 1);
  });

  it('aborts a handler on $/cancel_request and answers -32800', async () => {
    const { peer } = connect({
      request: (_m, _p, { signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    peer.send({ jsonrpc: '2.0', id: 'r1', method: 'terminal/wait_for_exit', params: {} });
    await tick(10);
    peer.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'r1' } });
    const answer = await peer.next();
    assert.equal(answer.id, 'r1');
    assert.equal((answer.error as { code: number }).code, -32800);
  });

  it('sends $/cancel_request when our request is aborted, and still waits for the answer', async () => {
    const { peer, rpc } = connect();
    const controller = new AbortController();
    const p = rpc.request('long', {}, controller.signal);
    const req = await peer.next();
    controller.abort();
    const cancel = await peer.next();
    assert.equal(cancel.method, '$/cancel_request');
    assert.deepEqual(cancel.params, { requestId: req.id });
    peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32800, message: 'cancelled' } });
    await assert.rejects(p, (e: unknown) => e instanceof RpcError && e.code === -32800);
  });

  it('rejects every pending request when closed, and refuses new ones', async () => {
    const { rpc } = connect();
    const a = rpc.request('a', {});
    const b = rpc.request('b', {});
    rpc.close(new Error('agent exited with code 3'));
    await assert.rejects(a, /code 3/);
    await assert.rejects(b, /code 3/);
    await assert.rejects(rpc.request('c', {}), /code 3/);
  });

  it('turns a handler exception into -32603 and an RpcError into its own code', async () => {
    const { peer } = connect({
      request: async (method) => {
        if (method === 'boom') throw new Error('kaboom');
        throw RpcError.resourceNotFound('File not found: /x');
      },
    });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'boom' });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'read' });
    const answers = [await peer.next(), await peer.next()].sort((x, y) => Number(x.id) - Number(y.id));
    assert.deepEqual(answers[0].error, { code: -32603, message: 'kaboom' });
    assert.deepEqual(answers[1].error, { code: -32002, message: 'File not found: /x' });
  });
});

describe('message writer', () => {
  it('never interleaves messages and waits for drain under back-pressure', async () => {
    const written: string[] = [];
    let drains = 0;
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        setTimeout(done, 1);
      },
    });
    slow.on('drain', () => drains++);
    const writer = new MessageWriter(slow);
    const messages = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(100) }));
    await Promise.all(messages.map((m) => writer.write(m)));
    await new Promise((r) => slow.end(r));
    assert.deepEqual(written, messages.map((m) => m + '\n'));
    assert.ok(drains > 0, 'back-pressure was exercised');
  });
});
