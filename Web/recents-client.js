// recents-client.js: the transport of a Recents thin client, usable outside this page (a browser
// or Node 18+). It opens a view, follows it (event stream when the server has one, long-poll
// otherwise; resync on 410; reconnect with backoff), applies transitions as a pure function and
// makes the write calls. It knows nothing of the DOM.

/** The default view: all calls, the newest 50 rows, UTC. */
export const defaultView = Object.freeze({ filter: 'all', limit: 50, tz: 0 });

/** The error of a refused request: the HTTP status and the problem+json body, when there is one. */
export class RecentsError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = 'RecentsError';
    this.status = status;
    this.problem = problem ?? null;
  }
}

/**
 * Applies a transition to the rows shown at version `t.from` and returns the rows at `t.to`, as the
 * contract's index rules say: deletes by descending old index, inserts by ascending new index,
 * updates replace in place. Pure: `rows` is not changed. An initial transition (`from: null`)
 * starts from no rows. Throws when the transition does not fit the rows (ids or count differ),
 * so a client never shows a view the server did not send.
 */
export function applyTransition(rows, t) {
  const out = t.from === null ? [] : rows.slice();
  for (let k = t.deletes.length - 1; k >= 0; k -= 1) {
    const d = t.deletes[k];
    if (out[d.index]?.id !== d.id) throw new Error(`delete ${d.id} at ${d.index} does not match the rows`);
    out.splice(d.index, 1);
  }
  for (const i of t.inserts) {
    if (i.index > out.length) throw new Error(`insert ${i.id} at ${i.index} is past the end`);
    out.splice(i.index, 0, i.row);
  }
  for (const u of t.updates) {
    if (out[u.index]?.id !== u.id) throw new Error(`update ${u.id} at ${u.index} does not match the rows`);
    out[u.index] = u.row;
  }
  if (out.length !== t.count) throw new Error(`${out.length} rows after the transition, the server said ${t.count}`);
  return out;
}

/** Whether two views ask for the same rows. */
export function sameView(a, b) {
  return a.filter === b.filter && a.limit === b.limit && a.tz === b.tz;
}

/** The next delay of a reconnect backoff: doubling from 250 ms to 15 s, with up to 25 % jitter. */
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(15000, 250 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.75 + 0.25 * random()));
}

/** One list on one server: reads, writes and the live feed, with an optional bearer token. */
export class RecentsClient {
  /**
   * @param {object} o
   * @param {string} o.list the list's name
   * @param {string} [o.baseURL] the server's origin ('' for the page's own)
   * @param {string|null} [o.token] a bearer token; the server ignores it when it has no access control
   * @param {typeof fetch} [o.fetch]
   */
  constructor({ list, baseURL = '', token = null, fetch: fetchFn = globalThis.fetch }) {
    this.list = list;
    this.baseURL = baseURL;
    this.token = token;
    // Called unbound: window.fetch refuses to run with a `this` other than the window.
    this.fetch = (...args) => fetchFn(...args);
  }

  /** The URL of a path below the list, with query parameters (undefined and null are left out). */
  url(path, query = {}) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
    const q = params.toString();
    return `${this.baseURL}/v1/lists/${encodeURIComponent(this.list)}${path}${q ? `?${q}` : ''}`;
  }

  headers(extra = {}) {
    const h = { ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  /**
   * Sends a request; answers the parsed JSON, or throws RecentsError (HTTP) or TypeError (network).
   * `key` is sent as `Idempotency-Key`, so a retry with the same key is answered once.
   */
  async request(method, path, { query, body, signal, key } = {}) {
    const init = { method, headers: this.headers(), signal };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (key) init.headers['Idempotency-Key'] = key;
    const res = await this.fetch(this.url(path, query), init);
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) throw new RecentsError(res.status, json);
    return json;
  }

  // MARK: reads

  /**
   * `GET rows` of a view: `{list, epoch, version, filter, limit, tz, editing, revealedRowId, hasMore,
   * unseenMissed, rows}` (`unseenMissed`, the missed-calls badge, is absent from older servers).
   */
  rows(view = defaultView) {
    return this.request('GET', '/rows', { query: view });
  }

  /**
   * `GET rows/{rowId}`: a row of the view (`filter`, `tz`) and its calls, newest first:
   * `{list, epoch, version, row, calls: [{id, timestamp, direction, endReason, duration, video, kind}]}`,
   * `kind` one of `incoming`, `outgoing`, `missed`, `cancelled`. A row the view lacks is a 404 RecentsError.
   */
  rowInfo(rowId, view = defaultView) {
    return this.request('GET', `/rows/${encodeURIComponent(rowId)}`, { query: { filter: view.filter, tz: view.tz } });
  }

  /**
   * `GET calls/{callId}/row`: what `rowInfo` answers, for the row of the view that groups call
   * `callId`. A call joining a group gives the row a new id (its newest call's): a row known by
   * an id that is now 404 is found again through it. A call in no row of the view is a 404 RecentsError.
   */
  rowOfCall(callId, view = defaultView) {
    return this.request('GET', `/calls/${encodeURIComponent(callId)}/row`, { query: { filter: view.filter, tz: view.tz } });
  }

  /**
   * `rowInfo`, conditional on the ETag of an earlier answer: `{info, etag}`, where `info` is null
   * when that answer still holds (304).
   */
  async rowInfoSince(rowId, view = defaultView, etag = null) {
    const url = this.url(`/rows/${encodeURIComponent(rowId)}`, { filter: view.filter, tz: view.tz });
    const res = await this.fetch(url, { headers: this.headers(etag ? { 'If-None-Match': etag } : {}) });
    if (res.status === 304) return { info: null, etag };
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new RecentsError(res.status, json);
    return { info: json, etag: res.headers.get('ETag') };
  }

  /**
   * `GET transitions`: from version `since` of `fromView` (or the initial transition without
   * `since`) to the current version of `view`, held up to `wait` seconds when empty (with
   * `includeEmpty`, only while the list stays at `since`).
   */
  transition({ since = null, epoch = null, view = defaultView, fromView = null, wait = 0, includeEmpty = false, signal } = {}) {
    const query = { ...view, wait: wait || undefined, includeEmpty: includeEmpty || undefined };
    if (since !== null) Object.assign(query, { since, epoch });
    if (since !== null && fromView) {
      Object.assign(query, { fromFilter: fromView.filter, fromLimit: fromView.limit, fromTz: fromView.tz });
    }
    return this.request('GET', '/transitions', { query, signal });
  }

  /** The initial transition of a view: the whole view, to apply to no rows. */
  open(view = defaultView) {
    return this.transition({ view });
  }

  /** `GET /v1/rules`: the numbers of the swipe rule and the rows' options (the server's `Gesture.decide`). */
  async rules() {
    const res = await this.fetch(`${this.baseURL}/v1/rules`, { headers: this.headers() });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new RecentsError(res.status, json);
    return json;
  }

  // MARK: writes

  /**
   * Sends a write `{method, path, query, body}` (below the list) with its `Idempotency-Key`; gives up
   * after `timeout` ms (a TimeoutError, to retry with the same key).
   */
  send({ method, path, query, body }, key, timeout = 10000) {
    return this.request(method, path, { query, body, key, signal: AbortSignal.timeout(timeout) });
  }

  /** Opens (or closes) a row's options, for every client of the list. */
  reveal(rowId, revealed, key) {
    return this.request('PUT', `/rows/${encodeURIComponent(rowId)}/reveal`, { body: { revealed }, key });
  }

  /** Turns edit mode on or off (off also closes the open row). */
  setEditing(editing, key) {
    return this.request('PUT', '/editing', { body: { editing }, key });
  }

  /** Posts the release of a swipe; the server answers the outcome and the offset to settle at. */
  gesture(rowId, { initialOffset, offset, velocity, buttonWidth = 74 }, key) {
    return this.request('POST', `/rows/${encodeURIComponent(rowId)}/gesture`, {
      body: { initialOffset, offset, velocity, buttonWidth },
      key,
    });
  }

  /** Confirms a row's option (`delete`) for `me` or `everyone`, for the row as the view computes it. */
  confirmOption(rowId, option, scope = 'me', view = defaultView, key) {
    return this.request('POST', `/rows/${encodeURIComponent(rowId)}/options/${encodeURIComponent(option)}`, {
      query: { filter: view.filter, tz: view.tz },
      body: { scope },
      key,
    });
  }

  /**
   * Marks the missed calls up to `through` (Unix seconds) seen on every device; the mark never
   * moves back. Answers `{version, epoch, seenThrough, unseenMissed}`.
   */
  markSeen(through, key) {
    return this.request('POST', '/seen', { body: { through }, key });
  }

  /** Deletes every call of the list, for `me` or `everyone`. */
  clear(scope = 'me', key) {
    return this.request('POST', '/clear', { body: { scope }, key });
  }

  /** Posts calls (one object, or an array). */
  postCalls(calls, key) {
    return this.request('POST', '/calls', { body: Array.isArray(calls) ? { calls } : calls, key });
  }

  // MARK: the live feed

  /**
   * Follows `view` from version `since` (null: start with the initial transition) and calls
   * `onTransition(t)` with each transition in order. Uses the event stream when it answers
   * `200 text/event-stream`, long-poll otherwise. On 410 it starts again with an initial
   * transition; on network or server errors it retries with backoff, reporting `onStatus('offline'
   * | 'online', detail)`. With `includeEmpty`, every new version of the list comes as a transition,
   * also one that leaves the view as it was (to share the feed with views of other tabs). Returns
   * `{ stop() }`.
   */
  follow({ view = defaultView, since = null, epoch = null, onTransition, onStatus = () => {}, useStream = true, includeEmpty = false }) {
    const controller = new AbortController();
    const state = { since, epoch, stream: useStream, attempt: 0, online: null, includeEmpty };
    const setOnline = (online, detail) => {
      if (state.online === online) return;
      state.online = online;
      onStatus(online ? 'online' : 'offline', detail);
    };
    const deliver = (t) => {
      if (controller.signal.aborted) return;
      state.since = t.to;
      state.epoch = t.epoch;
      state.attempt = 0;
      setOnline(true);
      onTransition(t);
    };
    const resync = () => {
      state.since = null;
      state.epoch = null;
    };
    const loop = async () => {
      while (!controller.signal.aborted) {
        try {
          if (state.stream) {
            const used = await this.#streamOnce(view, state, deliver, resync, controller.signal);
            if (!used) state.stream = false;
          } else {
            const t = await this.transition({
              since: state.since,
              epoch: state.epoch,
              view,
              wait: state.since === null ? 0 : 30,
              includeEmpty,
              signal: controller.signal,
            });
            deliver(t);
          }
        } catch (e) {
          if (controller.signal.aborted) return;
          if (e instanceof RecentsError && e.status === 410) {
            resync();
            continue;
          }
          if (e instanceof RecentsError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429) {
            setOnline(false, e.message);
            throw e;
          }
          setOnline(false, e.message);
          await sleep(backoffDelay(state.attempt), controller.signal);
          state.attempt += 1;
        }
      }
    };
    const done = loop().catch(() => {});
    return {
      stop() {
        controller.abort();
      },
      done,
      get since() {
        return state.since;
      },
      /** `stream` while the event stream is in use (or about to be tried), `long-poll` after a fallback. */
      get mode() {
        return state.stream ? 'stream' : 'long-poll';
      },
    };
  }

  /**
   * One event-stream connection. Answers false when the server has no stream (so the caller
   * long-polls), true when a stream ran and ended (the caller reconnects).
   */
  async #streamOnce(view, state, deliver, resync, signal) {
    const query = { ...view, includeEmpty: state.includeEmpty || undefined };
    if (state.since !== null) Object.assign(query, { since: state.since, epoch: state.epoch });
    const res = await this.fetch(this.url('/events', query), {
      headers: this.headers({ Accept: 'text/event-stream' }),
      signal,
    });
    const type = res.headers.get('content-type') ?? '';
    if (res.status === 410) {
      await res.text().catch(() => '');
      throw new RecentsError(410, null);
    }
    if (res.status >= 500) {
      await res.text().catch(() => '');
      throw new RecentsError(res.status, null);
    }
    if (res.status !== 200 || !type.startsWith('text/event-stream') || !res.body) {
      await res.text().catch(() => '');
      return false;
    }
    const parser = new EventStreamParser((event) => {
      if (event.event === 'resync') resync();
      else if (event.event === 'transition' || event.event === 'message') deliver(JSON.parse(event.data));
    });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    return true;
  }
}

/** A parser of `text/event-stream` (the WHATWG rules this protocol needs: fields, comments, blank-line dispatch). */
export class EventStreamParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = '';
    this.reset();
  }

  reset() {
    this.event = '';
    this.data = [];
    this.id = null;
  }

  push(chunk) {
    this.buffer += chunk;
    let nl;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const sep = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + sep);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      if (this.data.length) this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.reset();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
