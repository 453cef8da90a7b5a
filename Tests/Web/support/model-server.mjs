// A pure in-memory model of the Recents server for the page's property tests: calls with the versions
// that created and deleted them, the list state per version, rows grouped as RecentsCore's RowBuilder
// groups them, transitions between any two retained views, the write endpoints' rules (404s, one row
// open, Done closes it) and Idempotency-Key replays. Written from docs/API.md; the one grouping rule it
// shares with the page (`joins`, `merge` of Web/actions.js) and its own rows are both proven equal to
// RowBuilder's on Tests/Fixtures/grouping.json (grouping.test.mjs).

import { decide } from '../../../Web/gesture.js';
import { joins, merge, status } from '../../../Web/actions.js';

const options = [{ key: 'delete', title: 'Delete', destructive: true }];

const isMissed = (c) => c.direction === 'incoming' && c.endReason === 'missed';

/** Telegram's kind of a call (docs/API.md, `GET rows/{rowId}`). */
export function kindOf(c) {
  if (c.endReason === 'hangup') return c.direction;
  if (c.endReason === 'disconnect') return 'cancelled';
  return c.direction === 'incoming' ? 'missed' : 'cancelled';
}
const precedes = (a, b) => (a.timestamp !== b.timestamp ? b.timestamp - a.timestamp : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The row of one call, as RowBuilder makes it. */
function rowOf(c) {
  const missed = isMissed(c);
  const incoming = c.direction === 'incoming';
  return {
    id: c.id,
    peer: { id: c.peer.id, name: c.peer.name },
    count: 1,
    callIds: [c.id],
    timestamp: c.timestamp,
    missed,
    incoming,
    outgoing: !incoming,
    video: c.video,
    duration: c.duration,
    status: status(missed, incoming, !incoming),
  };
}

/** The rows of `calls` (alive, any order) for `view`, with the list `state`: `{rows, hasMore}`. */
export function buildRows(calls, state, view) {
  const groups = [];
  for (const c of calls.filter((x) => view.filter === 'all' || isMissed(x)).sort(precedes)) {
    const row = rowOf(c);
    const above = groups[groups.length - 1];
    if (above && joins(above, row, view.tz)) groups[groups.length - 1] = merge(above, row);
    else groups.push(row);
  }
  const rows = groups.slice(0, view.limit).map((row) => ({
    ...row,
    revealed: state.revealedRowId === row.id,
    editing: state.editing,
    options,
  }));
  return { rows, hasMore: groups.length > view.limit };
}

/** A plain diff in the transition shape (LCS on ids: rows never move, so a merge walk suffices). */
function diff(before, after) {
  const afterIds = new Set(after.map((r) => r.id));
  const beforeIds = new Map(before.map((r, i) => [r.id, i]));
  const deletes = before.flatMap((r, index) => (afterIds.has(r.id) ? [] : [{ index, id: r.id }]));
  const inserts = [];
  const updates = [];
  after.forEach((row, index) => {
    const i = beforeIds.get(row.id);
    if (i === undefined) inserts.push({ index, previousIndex: null, id: row.id, row, directionHint: null });
    else if (JSON.stringify(before[i]) !== JSON.stringify(row)) updates.push({ index, previousIndex: i, id: row.id, row });
  });
  return { deletes, inserts, updates };
}

export class ModelServer {
  constructor(epoch = 'model001') {
    this.epoch = epoch;
    this.lists = new Map();
    this.landed = new Map(); // idempotency key → number of times it wrote
  }

  list(name) {
    if (!this.lists.has(name)) {
      this.lists.set(name, {
        version: 0,
        calls: [],
        states: [{ version: 0, editing: false, revealedRowId: null }],
        marks: [{ version: 0, through: 0 }],
        keys: new Map(),
      });
    }
    return this.lists.get(name);
  }

  stateAt(l, version) {
    let s = l.states[0];
    for (const x of l.states) if (x.version <= version) s = x;
    return s;
  }

  callsAt(l, version) {
    return l.calls.filter((c) => c.created <= version && (c.deleted === null || c.deleted > version));
  }

  /** The seen mark at `version`. */
  markAt(l, version) {
    let m = l.marks[0];
    for (const x of l.marks) if (x.version <= version) m = x;
    return m.through;
  }

  /** `unseenMissed` at `version`: missed-class calls alive and after the mark. */
  unseenAt(l, version) {
    const mark = this.markAt(l, version);
    return this.callsAt(l, version).filter((c) => isMissed(c) && c.timestamp > mark).length;
  }

  /** `GET rows` of a view now (or at `version`). */
  rows(name, view, version = null) {
    const l = this.list(name);
    const v = version ?? l.version;
    const state = this.stateAt(l, v);
    const built = buildRows(this.callsAt(l, v), state, view);
    return { version: v, epoch: this.epoch, editing: state.editing, revealedRowId: state.revealedRowId, unseenMissed: this.unseenAt(l, v), ...built };
  }

  /** `GET rows/{rowId}`: `{status, body}` (404 for a row the whole view lacks). */
  rowInfo(name, rowId, view) {
    const l = this.list(name);
    const alive = this.callsAt(l, l.version);
    const row = buildRows(alive, this.stateAt(l, l.version), { ...view, limit: Infinity }).rows.find((r) => r.id === rowId);
    if (!row) return { status: 404, body: { type: 'not-found' } };
    const calls = row.callIds.map((id) => {
      const c = alive.find((x) => x.id === id);
      return { id, timestamp: c.timestamp, direction: c.direction, endReason: c.endReason, duration: c.duration, video: c.video, kind: kindOf(c) };
    });
    return { status: 200, body: { list: name, epoch: this.epoch, version: l.version, row, calls } };
  }

  /** `GET transitions`: from `since` of `fromView` (null: the initial transition) to now in `view`. */
  transition(name, { since = null, view, fromView = view }) {
    const l = this.list(name);
    const now = this.rows(name, view);
    const old = since === null ? { rows: [] } : this.rows(name, fromView, since);
    let reason = 'interactiveChanges';
    if (since === null) reason = 'initial';
    else if (fromView.filter !== view.filter) reason = 'reloadAnimated';
    else if (fromView.limit !== view.limit || fromView.tz !== view.tz) reason = 'reload';
    const d = diff(old.rows, now.rows);
    if (reason === 'interactiveChanges' && old.rows.length) {
      for (let k = 0; k < d.inserts.length && d.inserts[k].index === k; k += 1) d.inserts[k].directionHint = 'down';
    }
    const opts = { initial: ['lowLatency'], reloadAnimated: ['animateCrossfade'], reload: [], interactiveChanges: old.rows.length ? ['animateAlpha', 'animateInsertion'] : ['synchronous'] };
    return {
      list: name, from: since, to: l.version, reason, options: opts[reason], ...d, count: now.rows.length,
      hasMore: now.hasMore, editing: now.editing, revealedRowId: now.revealedRowId, unseenMissed: now.unseenMissed, epoch: this.epoch,
    };
  }

  // MARK: writes

  #commit(l, change) {
    l.version += 1;
    change(l.version);
  }

  #setState(l, next) {
    const cur = this.stateAt(l, l.version);
    if (cur.editing === next.editing && cur.revealedRowId === next.revealedRowId) return false;
    this.#commit(l, (v) => l.states.push({ version: v, ...next }));
    return true;
  }

  #alive(l) {
    return this.callsAt(l, l.version);
  }

  /** Deletes calls `ids` of list `l` in one version, closing the open row if it was one of them. */
  #deleteCalls(l, ids) {
    if (ids.length === 0) return;
    const cur = this.stateAt(l, l.version);
    this.#commit(l, (v) => {
      for (const c of l.calls) if (ids.includes(c.id) && c.deleted === null) c.deleted = v;
      if (ids.includes(cur.revealedRowId)) l.states.push({ version: v, editing: cur.editing, revealedRowId: null });
    });
  }

  postCalls(name, calls) {
    const l = this.list(name);
    const fresh = calls.filter((c) => !l.calls.some((x) => x.id === c.id));
    if (fresh.length) this.#commit(l, (v) => l.calls.push(...fresh.map((c) => ({ endReason: 'hangup', video: false, duration: 0, ...c, created: v, deleted: null }))));
    return { version: l.version, epoch: this.epoch };
  }

  /**
   * One write request as the API answers it: `{status, body}`. `key` is the Idempotency-Key: the same
   * key and body replay the first answer without writing; the same key with another body is 422.
   */
  write(name, { method, path, query = {}, body = null }, key = null) {
    const l = this.list(name);
    const bodyText = JSON.stringify(body);
    if (key !== null && l.keys.has(key)) {
      const first = l.keys.get(key);
      return first.body === bodyText ? { ...first.answer, replayed: true } : { status: 422, body: { type: 'idempotency-key-reused' } };
    }
    const before = l.version;
    const answer = this.#write(l, name, method, path, query, body ?? {});
    if (key !== null && answer.status < 500) {
      l.keys.set(key, { body: bodyText, answer });
      if (l.version !== before) this.landed.set(key, (this.landed.get(key) ?? 0) + 1);
    }
    return answer;
  }

  #write(l, name, method, path, query, body) {
    const ok = (extra = {}) => ({ status: 200, body: { version: l.version, epoch: this.epoch, ...extra } });
    const notFound = { status: 404, body: { type: 'not-found' } };
    const state = () => this.stateAt(l, l.version);
    const m = path.match(/^\/rows\/([^/]+)\/(reveal|gesture|options\/delete)$/);
    if (method === 'PUT' && path === '/editing') {
      const s = state();
      this.#setState(l, { editing: body.editing, revealedRowId: body.editing ? s.revealedRowId : null });
      return ok();
    }
    if (method === 'POST' && path === '/seen') {
      if (body.through > this.markAt(l, l.version)) this.#commit(l, (v) => l.marks.push({ version: v, through: body.through }));
      return ok({ seenThrough: this.markAt(l, l.version), unseenMissed: this.unseenAt(l, l.version) });
    }
    if (method === 'POST' && path === '/clear') {
      this.#deleteCalls(l, this.#alive(l).map((c) => c.id));
      return ok();
    }
    if (!m) throw new Error(`model: no route ${method} ${path}`);
    const rowId = decodeURIComponent(m[1]);
    if (m[2] === 'options/delete') {
      const view = { filter: query.filter ?? 'all', tz: Number(query.tz ?? 0), limit: Infinity };
      const row = buildRows(this.#alive(l), state(), view).rows.find((r) => r.id === rowId);
      if (!row) return notFound;
      this.#deleteCalls(l, row.callIds);
      if (body.scope === 'everyone' && row.peer.id !== name && this.lists.has(row.peer.id)) {
        const peer = this.lists.get(row.peer.id);
        const copies = this.#alive(peer).filter((c) => row.callIds.includes(c.id) && c.peer.id === name).map((c) => c.id);
        this.#deleteCalls(peer, copies);
      }
      return ok();
    }
    if (!this.#alive(l).some((c) => c.id === rowId)) return notFound;
    const s = state();
    // The gesture rule itself is the server's, proven equal to gesture.js by gesture-decisions.json.
    const revealed = m[2] === 'reveal' ? body.revealed : decide(body, options.length).outcome === 'open';
    const next = revealed ? rowId : s.revealedRowId === rowId ? null : s.revealedRowId;
    this.#setState(l, { editing: s.editing, revealedRowId: next });
    return ok();
  }
}
