import type { Disposable } from './event';

export type { Disposable } from './event';

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

let liveStores = 0;

/** Scopes not yet disposed, across the extension host: a leak check compares it before and after. */
export function liveScopeCount(): number {
  return liveStores;
}

/**
 * A scope: owns disposables and disposes them together, newest first (what was built on something goes before it).
 * Something added to a scope already disposed is disposed at once: a session that closed while its agent was still
 * starting must not keep what the start created. One failing disposable does not stop the others.
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposedValue = false;

  constructor(readonly name = 'scope') {
    liveStores++;
  }

  get isDisposed(): boolean {
    return this.disposedValue;
  }

  get size(): number {
    return this.items.length;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposedValue) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Runs `dispose` with the scope. */
  onDispose(dispose: () => void): Disposable {
    return this.add(toDisposable(dispose));
  }

  /** Forgets `item` without disposing it (it was disposed early by its own owner). */
  delete(item: Disposable): void {
    this.items = this.items.filter((i) => i !== item);
  }

  /** A scope inside this one: disposed with it, or earlier on its own (then it leaves this one). */
  child(name: string): DisposableStore {
    const child = new DisposableStore(`${this.name}/${name}`);
    this.add(child);
    child.onDispose(() => this.delete(child));
    return child;
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    liveStores--;
    const items = this.items.reverse();
    this.items = [];
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables of ${this.name} failed`);
  }
}
