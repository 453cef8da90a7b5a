// replica.js: the page's copy of a list, Replicache-style. It keeps the server's view at version V
// (moved only by the server's transitions) and the page's own actions not yet seen in it, in order;
// the screen is always applyAction over the pending actions, starting from the server's view. Pure
// (no timers, no I/O): sync.js feeds it transitions and replies, and each change reports the screen
// diff to animate and any notice to show.

import { applyTransition } from './recents-client.js';
import { applyAction, describeAction, stamp } from './actions.js';
import { diffScreens } from './screen-diff.js';

/** A new Idempotency-Key: random, visible ASCII, unique per action. */
export function newKey() {
  const c = globalThis.crypto;
  if (c?.randomUUID) return `w-${c.randomUUID()}`;
  const bytes = c.getRandomValues(new Uint8Array(16));
  return `w-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The screen of a server view with `pending` applied: `{rows, editing, revealedRowId, hasMore, view,
 * unseenMissed}` (`unseenMissed` null from a server too old to count).
 */
export function screenOf(server, pending) {
  if (!server) return { rows: [], editing: false, revealedRowId: null, hasMore: false, view: null, unseenMissed: null };
  let state = {
    rows: server.rows,
    editing: server.editing,
    revealedRowId: server.revealedRowId,
    hasMore: server.hasMore,
    view: server.view,
    unseenMissed: server.unseenMissed ?? null,
  };
  for (const action of pending) state = applyAction(state, action);
  return { ...state, rows: stamp(state.rows, state.editing, state.revealedRowId) };
}

/** Whether two rows hold the same calls (a delete rebuilds the rows it joins, so not by identity). */
const sameCalls = (a, b) => a === b || (a.callIds.length === b.callIds.length && a.callIds.every((id, i) => id === b.callIds[i]));

/** Statuses at which an action will never land, so it is dropped (404: its row is gone). */
export function isRefusal(status) {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** An edit or reveal action that has never left the page (one sent may have landed, even if it failed). */
function isUnsentStateAction(a) {
  return a.state === 'queued' && !a.attempted && (a.kind === 'editing' || a.kind === 'reveal' || a.kind === 'gesture');
}

export class Replica {
  /** `server`: a saved server view or null; `pending`: saved actions, in order. */
  constructor({ server = null, pending = [] } = {}) {
    this.server = server;
    // A request that was on its way when the page went away may or may not have landed: send it
    // again with its key, and the server answers it once.
    this.pending = pending.map((a) => ({ ...a, state: a.state === 'sent' ? 'queued' : a.state }));
    this.screen = screenOf(this.server, this.pending);
  }

  /** Actions the server has not answered yet (what the page says is waiting). */
  get waiting() {
    return this.pending.filter((a) => a.state !== 'replied').length;
  }

  /**
   * Applies a server transition `t` that turns the server view into `view` (its parameters). Throws
   * when `t` does not start where the server view is (the caller reloads).
   */
  receive(t, view) {
    if (t.from !== null && (!this.server || t.from !== this.server.version || t.epoch !== this.server.epoch)) {
      throw new Error(`transition from ${t.from} does not start at ${this.server?.version ?? 'nothing'}`);
    }
    const rows = applyTransition(this.server?.rows ?? [], t);
    this.server = {
      version: t.to,
      epoch: t.epoch,
      view: { ...view },
      rows,
      hasMore: t.hasMore,
      editing: t.editing,
      revealedRowId: t.revealedRowId,
      unseenMissed: t.unseenMissed ?? null,
    };
    return this.#settle({ reason: t.reason, options: t.options ?? [] });
  }

  /**
   * Adds an action of the page (`{kind, ...}`), shown at once; returns the change and the action. When
   * it undoes actions never sent (Edit then Done, open then close while offline), they all go: nothing waits.
   */
  act(fields) {
    const action = { ...fields, key: newKey(), state: 'queued', replyVersion: null, replyEpoch: null };
    this.pending.push(action);
    this.#dropCancelled();
    return { action, ...this.#settle({ reason: 'interactiveChanges', options: ['animateAlpha', 'animateInsertion'] }) };
  }

  /** Replaces the queue (a duplicated tab's, or one grown by a closed tab's); returns the change on screen. */
  replacePending(actions) {
    this.pending = actions.map((a) => ({ ...a, state: a.state === 'sent' ? 'queued' : a.state }));
    return this.#settle({ reason: 'interactiveChanges', options: ['animateAlpha', 'animateInsertion'] });
  }

  /** The first action to send, unless one is on its way (actions go one at a time, in order). */
  next() {
    if (this.pending.some((a) => a.state === 'sent')) return null;
    return this.pending.find((a) => a.state === 'queued') ?? null;
  }

  /** Marks an action as on its way: from now on it may have landed, so it is never dropped as cancelled out. */
  sent(key) {
    const a = this.#find(key);
    if (a) {
      a.state = 'sent';
      a.attempted = true;
    }
  }

  /** A request failed without an answer (network, 5xx): it goes again later, with its key. */
  failed(key) {
    const a = this.#find(key);
    if (a && a.state === 'sent') a.state = 'queued';
  }

  /** The server's reply `{version, epoch}`: the action retires once the server view reaches it. */
  replied(key, reply) {
    const a = this.#find(key);
    if (!a) return this.#settle(null);
    a.state = 'replied';
    a.replyVersion = reply.version;
    a.replyEpoch = reply.epoch;
    return this.#settle({ reason: 'interactiveChanges', options: ['animateAlpha', 'animateInsertion'] });
  }

  /** The server refused the action (`status`, a problem+json or null): it is dropped, rolled back if shown. */
  refused(key, status, problem = null) {
    const index = this.pending.findIndex((a) => a.key === key);
    if (index < 0) return this.#settle(null);
    const [action] = this.pending.splice(index, 1);
    const change = this.#settle({ reason: 'interactiveChanges', options: ['animateAlpha', 'animateInsertion'] });
    // What the action would still do to the screen, by the calls it named: nothing when its row is
    // gone anyway (a quiet 404); else the user sees it undone (now, or when the change that won came).
    const forced = applyAction(this.screen, { ...action, filter: null });
    const undone =
      forced.editing !== this.screen.editing ||
      forced.revealedRowId !== this.screen.revealedRowId ||
      forced.rows.length !== this.screen.rows.length ||
      forced.rows.some((row, i) => !sameCalls(row, this.screen.rows[i]));
    if (undone || status !== 404) {
      // Words come later, in the reader's language (locale.js `notice`): 404 and 409 say it changed elsewhere.
      change.notices.push({ action: describeAction(action), status, detail: problem?.detail ?? null });
    }
    return change;
  }

  /** Whether some answered action waits for a server version the page has not seen. */
  get awaitingVersion() {
    return this.pending.some((a) => a.state === 'replied');
  }

  /**
   * Drops the longest run of trailing edit and reveal actions, none of them ever sent, after which the
   * list's state (editing, the open row) is what it was before the run: together they change nothing.
   */
  #dropCancelled() {
    const stateOf = (actions) => {
      const s = screenOf(this.server, actions);
      return `${s.editing} ${s.revealedRowId}`;
    };
    const after = stateOf(this.pending);
    let first = this.pending.length;
    while (first > 0 && isUnsentStateAction(this.pending[first - 1])) first -= 1;
    for (let i = first; i < this.pending.length - 1; i += 1) {
      if (stateOf(this.pending.slice(0, i)) === after) {
        this.pending.splice(i);
        return;
      }
    }
  }

  #find(key) {
    return this.pending.find((a) => a.key === key) ?? null;
  }

  /** Retires what the server view includes, recomputes the screen, and diffs it against the last one. */
  #settle(cause) {
    const server = this.server;
    if (server) {
      // Retired: the server view shows the version the reply named (or a later one); another epoch
      // means another database, where the action's version means nothing.
      this.pending = this.pending.filter(
        (a) => !(a.state === 'replied' && (a.replyEpoch !== server.epoch || a.replyVersion <= server.version)),
      );
    }
    const before = this.screen;
    this.screen = screenOf(server, this.pending);
    const diff = diffScreens(before.rows, this.screen.rows);
    return { diff, cause, screen: this.screen, notices: [] };
  }
}
