// First: the translations are in place before any module builds a message.
import './localizePage';
import { fromPosted, type PostedHostMessage } from '../src/shared/postedText';
import { ChatApp } from './app';
import { HostChannel } from './hostChannel';

/** Entry point of the chat page (bundled to out/webview.js). */
const host = new HostChannel();
const app = new ChatApp(document.body, host);
const utf8 = new TextDecoder();
window.addEventListener('message', (event: MessageEvent<PostedHostMessage>) => app.receive(fromPosted(event.data, (bytes) => utf8.decode(bytes))));
// Read-only probes for the browser tests and the benchmark.
Object.defineProperty(window, '__howdah', { value: Object.freeze({
    nodeCount: () => app.nodeCount(),
    renders: () => app.renders,
    resyncs: () => app.resyncs,
    renderStats: () => ({ renders: app.renders, totalMs: app.renderMs, longestMs: app.longestRenderMs }),
    render: () => app.render(),
    settled: () => app.settled(),
    configure: (options: { virtualize?: boolean; streamFrameMs?: number }) => app.configure(options),
    virtualizer: () => app.virtualizerStats(),
  }) });
host.post({ type: 'ready' });
// The renderer's setup, done before the first answer needs it (see warmUp).
requestIdleCallback(() => app.warmUp(), { timeout: 2000 });
