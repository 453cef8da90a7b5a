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

/** A LockManager for one process: exclusive locks by name, `ifAvailable`, `query().held`; `release(name)` frees one. */
export class FakeLocks {
  constructor() {
    this.held = new Map(); // name → resolver that releases it
    this.queues = new Map();
  }

  async request(name, options, body) {
    if (typeof options === 'function') [options, body] = [{}, options];
    if (this.held.has(name)) {
      if (options.ifAvailable) return body(null);
      await new Promise((resolve) => this.queues.set(name, [...(this.queues.get(name) ?? []), resolve]));
    }
    let release;
    this.held.set(name, new Promise((r) => (release = r)));
    this.held.get(name).release = release;
    try {
      return await Promise.race([body({ name }), this.held.get(name)]);
    } finally {
      this.held.delete(name);
      const next = this.queues.get(name)?.shift();
      if (next) next();
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
