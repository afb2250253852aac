import type { WebviewMessage } from '../src/shared/protocol';

/** The API VS Code injects into webviews (acquirable once). */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** UI-only state kept across reloads of the page: never conversation state (that comes from the host). */
export interface UiState {
  history?: string[];
  draft?: string;
}

/** The typed way out of the page: only `WebviewMessage`s can be posted. */
export class HostChannel {
  private readonly api: VsCodeApi;

  constructor() {
    this.api = acquireVsCodeApi();
  }

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  uiState(): UiState {
    const state = this.api.getState();
    return typeof state === 'object' && state !== null ? (state as UiState) : {};
  }

  saveUiState(patch: Partial<UiState>): void {
    this.api.setState({ ...this.uiState(), ...patch });
  }
}
