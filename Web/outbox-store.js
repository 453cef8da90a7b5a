// outbox-store.js: what the page keeps across reloads, in localStorage: per list, the actions not yet
// seen on the server (in order, with their Idempotency-Keys) and the last server view, and the
// server's rules. Each tab owns its own queue (a tab id in sessionStorage survives reloads); a tab
// that closed with actions queued leaves them to the next tab that opens the list (Web Locks tell
// which tabs are still open). Storage and locks are parameters, so node tests pass fakes.

const prefix = 'recents:';

/** Reads JSON from storage; null when absent or unreadable. */
function read(storage, key) {
  try {
    const text = storage.getItem(key);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** Writes JSON to storage; false when it is full or refused (the page goes on without it). */
function write(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

function randomId() {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

export class OutboxStore {
  /**
   * @param {object} o
   * @param {string} o.list
   * @param {Storage} o.storage localStorage, or a fake
   * @param {Storage} [o.session] sessionStorage (the tab id); without it every load is a new tab
   * @param {LockManager|null} [o.locks] navigator.locks; without it queues of closed tabs stay put
   */
  constructor({ list, storage, session = null, locks = null }) {
    this.list = list;
    this.storage = storage;
    this.session = session;
    this.locks = locks;
    this.tab = session?.getItem(`${prefix}tab`) ?? randomId();
    session?.setItem(`${prefix}tab`, this.tab);
  }

  get outboxKey() {
    return `${prefix}outbox:${this.list}:${this.tab}`;
  }

  /** This tab's queued actions, in order. */
  loadOutbox() {
    return read(this.storage, this.outboxKey) ?? [];
  }

  /** Saves this tab's queue (removes the entry when it is empty). */
  saveOutbox(actions) {
    if (actions.length === 0) this.storage.removeItem(this.outboxKey);
    else write(this.storage, this.outboxKey, actions);
  }

  /** The last server view saved for the list, or null. */
  loadView() {
    return read(this.storage, `${prefix}view:${this.list}`);
  }

  saveView(server) {
    write(this.storage, `${prefix}view:${this.list}`, server);
  }

  /** The last rules the server published, or null. */
  loadRules() {
    return read(this.storage, `${prefix}rules`);
  }

  saveRules(rules) {
    write(this.storage, `${prefix}rules`, rules);
  }

  /**
   * Holds this tab's lock for the page's life, so other tabs know its queue is in use. When another
   * open tab holds the same id (a duplicated tab copies sessionStorage), this tab takes a new id and
   * answers the queue it had loaded under the old one, which is the other tab's: []. Resolves to
   * whether the id was kept.
   */
  async claim() {
    if (!this.locks) return true;
    const kept = await new Promise((resolve) => {
      this.locks
        .request(`${prefix}tab:${this.tab}`, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          return lock ? new Promise(() => {}) : undefined;
        })
        .catch(() => resolve(true));
    });
    if (kept) return true;
    this.tab = randomId();
    this.session?.setItem(`${prefix}tab`, this.tab);
    return this.claim().then(() => false);
  }

  /**
   * Moves the queues of tabs that are closed (no lock held) into this tab's, oldest first, and
   * answers the actions moved. One tab adopts at a time (a lock), so no action is taken twice.
   */
  async adoptOrphans() {
    if (!this.locks) return [];
    return this.locks.request(`${prefix}adopt:${this.list}`, async () => {
      const held = new Set(((await this.locks.query()).held ?? []).map((l) => l.name));
      const mine = `${prefix}outbox:${this.list}:`;
      const moved = [];
      for (let i = this.storage.length - 1; i >= 0; i -= 1) {
        const key = this.storage.key(i);
        if (!key?.startsWith(mine) || key === this.outboxKey) continue;
        if (held.has(`${prefix}tab:${key.slice(mine.length)}`)) continue;
        moved.push(...(read(this.storage, key) ?? []));
        this.storage.removeItem(key);
      }
      moved.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
      if (moved.length) this.saveOutbox([...this.loadOutbox(), ...moved]);
      return moved;
    });
  }
}
