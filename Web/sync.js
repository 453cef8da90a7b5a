// sync.js: one list kept in step with the server, without the DOM. It feeds a Replica with the
// server's transitions (following the view by event stream or long-poll, changing views by asking
// for a transition from what is shown), sends the page's actions one at a time with their keys
// (retrying with jitter while the link is down, dropping what the server refuses), and keeps the
// queue and the last server view in an OutboxStore, so a reload (offline too) starts where it was.
// With a StreamShare, only the tab leading the list follows it; the others take the leader's
// relayed transitions, or ask for their own when it relays a newer version of another view.

import { RecentsError, sameView } from './recents-client.js';
import { Replica, isRefusal } from './replica.js';
import { actionRequest, changesNothing } from './actions.js';
import { defaultRules } from './gesture.js';
import { relayDecision } from './stream-share.js';

/** The delay before sending again while the link is down: 0.5 s doubling to 4 s, half of it random. */
export function retryDelay(attempt, random = Math.random) {
  const base = Math.min(4000, 500 * 2 ** Math.min(attempt, 4));
  return Math.round(base * (0.5 + 0.5 * random()));
}

/** How long an answered action may wait for its version before the page asks for it. */
const versionWatchMs = 2000;

export class ListSync {
  /**
   * @param {object} o
   * @param {import('./recents-client.js').RecentsClient} o.client
   * @param {import('./outbox-store.js').OutboxStore} o.store
   * @param {object} o.view the view to show: `{filter, limit, tz}`
   * @param {(change, sync) => void} o.onChange a screen change: `{diff, cause, screen, notices, boot}`
   * @param {(status) => void} [o.onStatus] `{online, waiting}` whenever either changes
   * @param {(rules) => void} [o.onRules]
   * @param {object|null} [o.initial] the first view the server put into the page (`#recents-initial`)
   * @param {import('./stream-share.js').StreamShare|null} [o.share] the list's stream shared with the
   *   browser's other tabs (without it, this page follows the list itself)
   */
  constructor({ client, store, view, onChange, onStatus = () => {}, onRules = () => {}, initial = null, share = null }) {
    this.client = client;
    this.store = store;
    this.wanted = { ...view };
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.onRules = onRules;
    this.initial = initial;
    this.rules = initial?.rules ?? store.loadRules() ?? defaultRules;
    this.online = true;
    this.follower = null;
    this.generation = 0;
    this.attempt = 0;
    this.timers = {};
    this.driving = false;
    this.sending = false;
    this.stopped = false;
    this.busy = false;
    this.wakers = new Set();
    this.share = share;
    /** The newest version the leader relayed since this tab last asked for its own transition. */
    this.relayedTo = null;
  }

  /** Shows what is known at once (the inlined view or the saved one, with the saved queue), then goes live. */
  start() {
    const saved = this.store.loadView();
    let server = null;
    if (this.initial?.transition && this.initial.list === this.client.list) {
      try {
        const inlined = new Replica();
        inlined.receive(this.initial.transition, this.initial.view);
        server = inlined.server;
      } catch {
        // An inlined view that does not parse as a transition: start as if there were none.
      }
    }
    // A page from the service worker's cache (offline) may carry an older inlined view than the saved one.
    if (saved && (!server || (saved.epoch === server.epoch && saved.version > server.version))) server = saved;
    this.replica = new Replica({ server, pending: this.store.loadOutbox() });
    if (server && server.view.filter !== this.wanted.filter) this.wanted.filter = server.view.filter;
    this.emit({ diff: null, cause: { reason: 'initial' }, screen: this.replica.screen, notices: [], boot: true });
    this.status();
    this.store
      .claim()
      .then((kept) => {
        if (!kept) this.replaceQueue([]);
        return this.store.adoptOrphans();
      })
      .then((moved) => moved.length && this.replaceQueue([...this.replica.pending, ...moved]))
      .catch(() => {});
    if (!this.initial?.rules) this.fetchRules();
    this.resume();
  }

  /** Goes live again (after `pause`, or at start): follows the view and sends what waits. */
  resume() {
    this.stopped = false;
    this.share?.join({
      onLead: () => this.lead(),
      onRelay: (view, t) => this.relayed(view, t),
      onStatus: (online) => this.leaderStatus(online),
    });
    this.drive();
    this.pump();
  }

  /** Stops following and sending (the page is hidden into the back/forward cache); saves what it has. */
  pause() {
    this.stopped = true;
    // The next tab in line leads (its stream starts from the version it shows).
    this.share?.leave();
    this.stopFollower();
    for (const t of Object.values(this.timers)) clearTimeout(t);
    this.timers = {};
    // A wait in progress ends now, so `drive` returns and `resume` can start it again.
    for (const wake of this.wakers) wake();
    this.wakers.clear();
    this.saveNow();
  }

  /** The link is back (an `online` event): send and follow now instead of at the next retry. */
  kick() {
    if (this.stopped) return;
    this.attempt = 0;
    clearTimeout(this.timers.retry);
    this.pump();
    if (!this.online) this.restartFollower();
  }

  /** Adds an action of the page (`{kind, …}`): shown at once, kept, sent in order; null if it changes nothing. */
  act(fields) {
    if (changesNothing(this.replica.screen, fields)) return null;
    const change = this.replica.act({ ...fields, createdAt: Date.now() });
    this.store.saveOutbox(this.replica.pending);
    this.emit(change);
    this.status();
    this.pump();
    return change.action;
  }

  /** Asks for another view (`{filter}`, `{limit}`): a transition from what is shown. */
  setView(changes) {
    this.wanted = { ...this.wanted, ...changes };
    this.drive();
  }

  get screen() {
    return this.replica.screen;
  }

  // MARK: - the server's view

  emit(change) {
    this.onChange(change, this);
  }

  receive(t, view) {
    let change;
    try {
      change = this.replica.receive(t, view);
    } catch {
      // Not from the version shown (it cannot happen with a correct server): load the view again.
      this.resync = true;
      this.drive();
      return;
    }
    this.emit(change);
    this.afterServerChange();
  }

  afterServerChange() {
    this.store.saveOutbox(this.replica.pending);
    clearTimeout(this.timers.save);
    this.timers.save = setTimeout(() => this.saveNow(), 250);
    this.status();
    this.watchVersion();
  }

  saveNow() {
    if (this.replica?.server) this.store.saveView(this.replica.server);
  }

  /** Gets to the wanted view: the initial transition, or one from what is shown; then follows it. */
  async drive() {
    if (this.driving) {
      this.again = true;
      return;
    }
    this.driving = true;
    try {
      do {
        this.again = false;
        if (this.stopped) return;
        const wanted = { ...this.wanted };
        const server = this.replica.server;
        const moved = server && (!sameView(wanted, server.view) || this.refresh || this.behind());
        if (!server || this.resync || moved) {
          this.busy = true;
          this.stopFollower();
          const resync = !server || this.resync;
          this.resync = false;
          this.refresh = false;
          // What the leader relays from now on is news for after this answer.
          this.relayedTo = null;
          const request = resync
            ? { view: wanted }
            : { since: server.version, epoch: server.epoch, view: wanted, fromView: server.view };
          const t = await this.fetchTransition(request);
          if (!t || this.stopped) return;
          if (t.from === null || t.from === this.replica.server?.version) this.receive(t, wanted);
          else this.resync = true;
        }
        if (!this.follower && !this.resync) this.startFollower();
      } while (this.again || this.resync || (this.replica.server && !sameView(this.wanted, this.replica.server.view)));
    } finally {
      this.busy = false;
      this.driving = false;
    }
  }

  /** A transition from the server, retried while the link is down; on 410 the initial transition instead. */
  async fetchTransition(request) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.client.transition(request);
      } catch (e) {
        if (e instanceof RecentsError && e.status === 410) return this.fetchTransition({ view: request.view });
        this.setOnline(false);
        await this.sleep(retryDelay(attempt));
        if (this.stopped) return null;
      }
    }
  }

  /** Waits `ms`, or until `pause`. */
  sleep(ms) {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  startFollower() {
    const server = this.replica.server;
    const generation = ++this.generation;
    if (this.share && !this.share.leading) {
      // Another tab of the list holds the stream and relays it: nothing to connect.
      this.follower = { mode: 'relay', relay: true, stop() {} };
      return;
    }
    const view = { ...server.view };
    this.follower = this.client.follow({
      view,
      since: server.version,
      epoch: server.epoch,
      // Tabs of other views learn every version from this stream.
      includeEmpty: this.share !== null,
      onTransition: (t) => {
        if (generation !== this.generation) return;
        this.setOnline(true);
        this.share?.publish(view, t);
        this.receive(t, view);
      },
      onStatus: (s) => {
        if (generation !== this.generation) return;
        this.setOnline(s === 'online');
        this.share?.publishStatus(s === 'online');
        if (s === 'online') this.kick();
      },
    });
  }

  /** This tab now leads the list (the tab that did went, or none did): it follows by its own stream. */
  lead() {
    if (this.stopped) return;
    if (this.follower?.relay) this.stopFollower();
    this.drive();
  }

  /**
   * The leader relayed `t`, a transition of its stream for `view`: applied when it is this tab's
   * view from the version shown; else, if the list moved past what is shown, this tab asks for its
   * own transition (one request for any number of versions relayed meanwhile).
   */
  relayed(view, t) {
    if (this.stopped || this.share?.leading) return;
    const decision = relayDecision(this.replica.server, view, t);
    if (decision === 'ignore') return;
    if (decision === 'apply' && this.follower?.relay && !this.driving) {
      this.receive(t, view);
      return;
    }
    const seen = this.relayedTo;
    if (!seen || seen.epoch !== t.epoch || seen.version < t.to) this.relayedTo = { epoch: t.epoch, version: t.to };
    this.drive();
  }

  /** Whether the leader relayed a version newer than the one shown since this tab last asked for its own. */
  behind() {
    const server = this.replica.server;
    const seen = this.relayedTo;
    if (!server || !seen || this.share?.leading) return false;
    return seen.epoch !== server.epoch || seen.version > server.version;
  }

  /** The leader's link went down or came back: this tab's is the same browser's. */
  leaderStatus(online) {
    if (this.stopped) return;
    const was = this.online;
    this.setOnline(online);
    if (online && !was) this.kick();
  }

  stopFollower() {
    this.generation += 1;
    this.follower?.stop();
    this.follower = null;
  }

  restartFollower() {
    if (this.stopped || this.driving || !this.replica.server) return;
    this.stopFollower();
    this.startFollower();
  }

  /**
   * An answered action retires when the shown version reaches its reply's; a write that changes
   * nothing this view shows sends no event, so after a while the page asks for the version itself.
   */
  watchVersion() {
    clearTimeout(this.timers.watch);
    if (!this.replica.awaitingVersion) return;
    this.timers.watch = setTimeout(() => {
      if (!this.replica.awaitingVersion || this.stopped) return;
      this.refresh = true;
      this.drive();
    }, versionWatchMs);
  }

  // MARK: - the page's actions

  /** Sends queued actions one at a time, in order, each with its key, until none waits or the link is down. */
  async pump() {
    if (this.sending || this.stopped) return;
    this.sending = true;
    try {
      for (let a = this.replica.next(); a && !this.stopped; a = this.replica.next()) {
        this.replica.sent(a.key);
        this.store.saveOutbox(this.replica.pending);
        try {
          const reply = await this.client.send(actionRequest(a), a.key);
          const wasOffline = !this.online;
          this.attempt = 0;
          this.setOnline(true);
          this.emit(this.replica.replied(a.key, reply));
          if (wasOffline) this.restartFollower();
        } catch (e) {
          if (e instanceof RecentsError && isRefusal(e.status)) {
            this.emit(this.replica.refused(a.key, e.status, e.problem));
            continue;
          }
          this.replica.failed(a.key);
          if (!(e instanceof RecentsError)) this.setOnline(false);
          clearTimeout(this.timers.retry);
          this.timers.retry = setTimeout(() => this.pump(), retryDelay(this.attempt));
          this.attempt += 1;
          break;
        } finally {
          this.afterServerChange();
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** Drops the queue for `actions` (a duplicated tab's, or one grown by a closed tab's queue). */
  replaceQueue(actions) {
    this.emit(this.replica.replacePending(actions));
    this.store.saveOutbox(this.replica.pending);
    this.status();
    this.pump();
  }

  // MARK: - status, rules

  setOnline(online) {
    if (this.online === online) return;
    this.online = online;
    this.status();
  }

  status() {
    const s = { online: this.online, waiting: this.replica.waiting };
    if (this.lastStatus?.online === s.online && this.lastStatus?.waiting === s.waiting) return;
    this.lastStatus = s;
    this.onStatus(s);
  }

  async fetchRules() {
    try {
      const rules = await this.client.rules();
      if (!rules?.gesture || !Array.isArray(rules.rowOptions)) return;
      this.rules = rules;
      this.store.saveRules(rules);
      this.onRules(rules);
    } catch {
      // A server without /v1/rules, or no link: the saved or default rules stay.
    }
  }
}
