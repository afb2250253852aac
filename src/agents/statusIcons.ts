/** What the status bar item says the active session is doing. */
export type SessionActivity = 'paused' | 'exited' | 'starting' | 'waiting' | 'working' | 'idle';

/**
 * The item's icon for each activity. Only a start spins: the user waits for it, and it is short. A turn can stream
 * for minutes, and while an animated icon shows, the window composites a new frame 20 times a second
 * (microsoft/vscode#96094: the GPU process at 5–25 % of a core for one spinning status bar item). Where the window is
 * composited in software (no GPU: a VM, a remote desktop, a browser without acceleration), that was the largest cost
 * of a streaming answer after the answer itself: in the stream bench's real window, the compositor's 1.2–1.7 s of CPU
 * per 10 MiB answer went with it, and the extension host and the page had those cores back.
 */
export const ACTIVITY_ICONS: Readonly<Record<SessionActivity, string>> = {
  paused: '$(debug-pause)',
  exited: '$(error)',
  starting: '$(loading~spin)',
  waiting: '$(bell-dot)',
  working: '$(pulse)',
  idle: '$(hubot)',
};
