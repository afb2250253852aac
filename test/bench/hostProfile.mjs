// STREAM_HOST_PROFILE=<folder> (stream.mjs): a CPU profile of the extension host from Send to the answer shown, one
// .cpuprofile per stream (open it in Chromium's DevTools), and its heaviest functions by self time in the report.
// The host is Node: SIGUSR1 opens its inspector on 127.0.0.1:9229, which takes the DevTools protocol over a WebSocket.
// extension.js is minified with its names kept, so the functions are named as in the source.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

const INSPECTOR_PORT = 9229;

async function inspectorTarget(port) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [target] = await fetch(`http://127.0.0.1:${port}/json/list`).then((r) => r.json()).catch(() => []);
    if (target?.webSocketDebuggerUrl) return target;
    if (Date.now() > deadline) throw new Error(`the extension host's inspector did not open on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts profiling the extension host `pid`; `stop(file)` writes the profile and resolves to its summary. */
export async function startHostProfile(pid) {
  process.kill(pid, 'SIGUSR1');
  const target = await inspectorTarget(INSPECTOR_PORT);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  let lastId = 0;
  const replies = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    replies.get(message.id)?.(message);
    replies.delete(message.id);
  });
  const call = (method, params = {}) => new Promise((resolve, reject) => {
    const id = ++lastId;
    replies.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
    socket.send(JSON.stringify({ id, method, params }));
  });
  // Another process may hold the port (then the host's inspector could not open): profile the host or nothing.
  const { result } = await call('Runtime.evaluate', { expression: 'process.pid', returnByValue: true });
  if (result.value !== pid) {
    socket.close();
    throw new Error(`port ${INSPECTOR_PORT} holds the inspector of process ${result.value}, not the extension host's (${pid})`);
  }
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 500 });
  await call('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await call('Profiler.stop');
      socket.close();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`extension host profile: ${file}`);
      return heaviest(profile);
    },
  };
}

/** The profile's busy time and its heaviest functions by self time ("name file:line"), idle left out. */
export function heaviest(profile, count = 8) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === '(idle)') return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += ms;
    const name = `${functionName || '(anonymous)'}${url ? ` ${url.split('/').pop()}:${lineNumber + 1}` : ''}`;
    self.set(name, (self.get(name) ?? 0) + ms);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, ms]) => ({ name, ms: Math.round(ms) }));
  return { busyMs: Math.round(busy), top };
}
