// First: the translations are in place before any module builds a message.
import './localizePage';
import type { HostMessage } from '../src/shared/protocol';
import { ChatApp } from './app';
import { HostChannel } from './hostChannel';

/** Entry point of the chat page (bundled to out/webview.js). */
const host = new HostChannel();
const app = new ChatApp(document.body, host);
window.addEventListener('message', (event: MessageEvent<HostMessage>) => app.receive(event.data));
// Read-only probes for the browser tests and the benchmark.
Object.defineProperty(window, '__howdah', { value: Object.freeze({
    nodeCount: () => app.nodeCount(),
    renders: () => app.renders,
    renderStats: () => ({ renders: app.renders, totalMs: app.renderMs, longestMs: app.longestRenderMs }),
    render: () => app.render(),
    settled: () => app.settled(),
    configure: (options: { virtualize?: boolean; streamFrameMs?: number }) => app.configure(options),
    virtualizer: () => app.virtualizerStats(),
  }) });
host.post({ type: 'ready' });
