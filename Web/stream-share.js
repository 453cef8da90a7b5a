// stream-share.js: one event stream per list per browser, however many tabs show the list. A
// browser gives a host six HTTP/1.1 connections; a stream per tab holds one for good, so the
// seventh tab could not even load. The tabs of a list elect a leader with a Web Lock
// (`recents:stream:<list>`): the tab holding it alone follows the list, asking for every version
// (`includeEmpty`), and posts each transition with the view it is for on a BroadcastChannel of the
// same name. The others hold no long-lived connection: a relayed transition of their own view from
// the version they show is applied as it is; any other newer version makes them ask for their own
// transition once (ListSync coalesces those). When the leader's tab closes, reloads, navigates away
// or crashes, the browser frees its lock and grants it to the next tab waiting, which follows from
// the version it shows (no resync). Locks and channels are parameters, so node tests pass fakes.

import { sameView } from './recents-client.js';

/** The name of a list's lock and of its channel. */
export function shareName(list) {
  return `recents:stream:${list}`;
}

/**
 * What a tab whose server view is `server` (or null while it loads) does with a transition `t` the
 * leader relayed for `view`: 'apply' it (its own view, from the version it shows), 'fetch' its own
 * (the list moved past what it shows, or the database is another), or 'ignore' it (nothing newer).
 */
export function relayDecision(server, view, t) {
  if (!server) return 'ignore';
  if (t.epoch !== server.epoch) return 'fetch';
  if (t.to <= server.version) return 'ignore';
  return t.from === server.version && sameView(view, server.view) ? 'apply' : 'fetch';
}

export class StreamShare {
  /**
   * @param {object} o
   * @param {string} o.list
   * @param {LockManager} o.locks navigator.locks, or a fake
   * @param {(name: string) => BroadcastChannel} o.openChannel a channel by name (`new BroadcastChannel(name)`)
   */
  constructor({ list, locks, openChannel }) {
    this.name = shareName(list);
    this.locks = locks;
    this.openChannel = openChannel;
    this.leading = false;
    this.channel = null;
    this.abort = null;
    this.release = null;
  }

  /**
   * Joins the list's tabs: hears the leader (`onRelay(view, t)` for each transition of its stream,
   * `onStatus(online)` when its link changes) and waits in line for the lock; `onLead()` when this
   * tab gets it (at once when no other tab of the list holds it).
   */
  join({ onLead, onRelay, onStatus = () => {} }) {
    if (this.channel) return;
    const channel = this.openChannel(this.name);
    this.channel = channel;
    channel.onmessage = (e) => {
      // A leader follows by its own stream; a message sent before it took over is old news.
      if (this.channel !== channel || this.leading) return;
      const m = e.data;
      if (m?.type === 'transition') onRelay(m.view, m.t);
      else if (m?.type === 'status') onStatus(m.online);
    };
    const abort = new AbortController();
    this.abort = abort;
    this.locks
      .request(this.name, { signal: abort.signal }, () => {
        // Granted as this tab left: give it straight to the next one.
        if (this.abort !== abort) return undefined;
        return new Promise((release) => {
          this.release = release;
          this.leading = true;
          onLead();
        });
      })
      .catch((e) => {
        // AbortError: this tab left while it waited. Anything else (no lock to be had here): the
        // tab follows the list itself rather than wait for a leader that may never come.
        if (this.abort !== abort || e?.name === 'AbortError') return;
        this.leading = true;
        onLead();
      });
  }

  /** Leaves (the page is hidden into the back/forward cache, or stops): the next tab in line leads. */
  leave() {
    if (!this.channel) return;
    this.abort.abort();
    this.abort = null;
    this.leading = false;
    this.release?.();
    this.release = null;
    this.channel.onmessage = null;
    this.channel.close();
    this.channel = null;
  }

  /** The leader's stream delivered `t` for `view`: every other tab of the list hears it. */
  publish(view, t) {
    if (this.leading) this.channel?.postMessage({ type: 'transition', view, t });
  }

  /** The leader's link went down or came back. */
  publishStatus(online) {
    if (this.leading) this.channel?.postMessage({ type: 'status', online });
  }
}
