/**
 * The one event primitive of every layer below the VS Code adapters (the adapters use `vscode.EventEmitter`, which has
 * the same shape): an `Emitter` owns its listeners, `event` subscribes and returns a `Disposable`.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

let liveListeners = 0;

/**
 * Listeners subscribed to any `Emitter` right now, across the extension host: a leak check compares it before and
 * after opening and closing sessions.
 */
export function emitterListenerCount(): number {
  return liveListeners;
}

export class Emitter<T> implements Disposable {
  /** Wrapped, so the same function subscribed twice is two subscriptions. */
  private listeners: { call: (value: T) => void }[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    const entry = { call: listener };
    this.listeners = [...this.listeners, entry];
    liveListeners++;
    return {
      dispose: () => {
        const before = this.listeners.length;
        this.listeners = this.listeners.filter((l) => l !== entry);
        liveListeners -= before - this.listeners.length;
      },
    };
  };

  /**
   * Calls every listener in subscription order. The list is replaced, never mutated, on (un)subscribe, so a listener
   * that unsubscribes (or subscribes another) while being called changes the next `fire`, not this one.
   */
  fire(value: T): void {
    for (const listener of this.listeners) listener.call(value);
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    liveListeners -= this.listeners.length;
    this.listeners = [];
  }
}

/**
 * `source`, once per burst, in a task after the one that fired it. For what follows a change but need not be on time
 * (menus' context keys, a record on disk), so that what must be (the panel's update, posted while the change fires)
 * reaches the window first: the window takes the extension host's messages in order, and a context key it takes
 * first re-evaluates menus while the panel's message waits behind it.
 */
export class AfterTask implements Disposable {
  private readonly emitter = new Emitter<void>();
  private readonly subscription: Disposable;
  private timer: ReturnType<typeof setTimeout> | undefined;
  readonly event = this.emitter.event;

  constructor(source: Event<void>) {
    this.subscription = source(() => {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.emitter.fire();
      }, 0);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
