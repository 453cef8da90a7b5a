// Stand-ins for the browser's Web Storage and Web Locks, for the page's modules under node.

/** A Storage (getItem, setItem, removeItem, key, length) over a Map; `full` makes setItem throw. */
export class FakeStorage {
  constructor() {
    this.map = new Map();
    this.full = false;
  }

  get length() {
    return this.map.size;
  }

  key(i) {
    return [...this.map.keys()][i] ?? null;
  }

  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }

  setItem(k, v) {
    if (this.full) throw new Error('QuotaExceededError');
    this.map.set(k, String(v));
  }

  removeItem(k) {
    this.map.delete(k);
  }
}

/** A LockManager for one process: exclusive locks by name, granted in request order; `ifAvailable`,
 * `signal` (a waiting request aborted rejects with AbortError), `query().held`; `release(name)` frees
 * one as a closing or crashing tab does, whatever its callback still awaits. */
export class FakeLocks {
  constructor() {
    this.held = new Map(); // name → { release }
    this.queues = new Map(); // name → waiting requests, in order
  }

  async request(name, options, body) {
    if (typeof options === 'function') [options, body] = [{}, options];
    const { signal } = options;
    if (signal?.aborted) throw abortError();
    if (this.held.has(name) || this.queues.get(name)?.length) {
      if (options.ifAvailable) return body(null);
      await new Promise((resolve, reject) => {
        const waiter = { resolve };
        this.queues.set(name, [...(this.queues.get(name) ?? []), waiter]);
        signal?.addEventListener(
          'abort',
          () => {
            const queue = this.queues.get(name) ?? [];
            if (!queue.includes(waiter)) return;
            queue.splice(queue.indexOf(waiter), 1);
            reject(abortError());
          },
          { once: true },
        );
      });
    }
    let release;
    const ended = new Promise((r) => (release = r));
    this.held.set(name, { release });
    try {
      return await Promise.race([body({ name }), ended]);
    } finally {
      this.held.delete(name);
      const next = this.queues.get(name)?.shift();
      if (next) {
        // Held for the next request from now, so no later request overtakes it.
        this.held.set(name, { release: () => {} });
        next.resolve();
      }
    }
  }

  /** Ends the lock `name` (its tab closed). */
  release(name) {
    this.held.get(name)?.release();
  }

  async query() {
    return { held: [...this.held.keys()].map((name) => ({ name })) };
  }
}

function abortError() {
  const e = new Error('the request was aborted');
  e.name = 'AbortError';
  return e;
}
