// Stand-ins for a browser's tabs, for the tests of stream-share.js and ListSync's leader and relay:
// BroadcastChannels of one origin, and a RecentsClient over the in-memory model server whose event
// streams behave as the server's (the first event even when empty; then one per change of the view,
// or per new version with `includeEmpty`; `from` is the last event's `to`).

import { RecentsError } from '../../../Web/recents-client.js';

/** BroadcastChannels of one origin: a message goes to every other open channel of its name, in order, later. */
export class FakeChannels {
  constructor() {
    this.open = new Set();
    this.posted = [];
  }

  channel(name) {
    const channels = this;
    const ch = {
      name,
      onmessage: null,
      postMessage(data) {
        if (!channels.open.has(ch)) throw new Error('InvalidStateError: the channel is closed');
        channels.posted.push(data);
        const copy = structuredClone(data);
        for (const other of channels.open) {
          if (other === ch || other.name !== name) continue;
          setTimeout(() => {
            if (channels.open.has(other)) other.onmessage?.({ data: copy });
          }, 0);
        }
      },
      close() {
        channels.open.delete(ch);
      },
    };
    this.open.add(ch);
    return ch;
  }
}

/**
 * The network between the tabs and the model server: streams open now, every request made (with
 * the tab that made it), and `hold()` to keep the answers of GET transitions (as of their request)
 * on their way until `releaseHeld()`.
 */
export class ModelNetwork {
  constructor(model) {
    this.model = model;
    this.streams = new Set();
    this.requests = [];
    this.gate = null;
  }

  /** Pushes the events the open streams owe after a commit (as the server does once it is durable). */
  commit() {
    for (const s of this.streams) setTimeout(() => s.push(), 0);
  }

  /** Writes from another device. */
  postCalls(list, calls) {
    const reply = this.model.postCalls(list, calls);
    this.commit();
    return reply;
  }

  hold() {
    let open;
    this.gate = new Promise((r) => (open = r));
    this.gate.open = open;
  }

  releaseHeld() {
    const gate = this.gate;
    this.gate = null;
    gate?.open();
  }

  client(list, tab) {
    return new ModelClient(this, list, tab);
  }

  streamsOf(list) {
    return [...this.streams].filter((s) => s.list === list);
  }
}

/** The RecentsClient methods ListSync uses, answered by the model server. */
export class ModelClient {
  constructor(net, list, tab) {
    this.net = net;
    this.list = list;
    this.tab = tab;
  }

  async transition({ since = null, epoch = null, view, fromView = null }) {
    this.net.requests.push({ tab: this.tab, kind: 'transition', since, view: { ...view } });
    // Answered as of now; held, the answer arrives after later commits (their relays first).
    const answer =
      epoch !== null && epoch !== this.net.model.epoch
        ? new RecentsError(410, { type: 'resync-required' })
        : this.net.model.transition(this.list, { since, view, fromView: fromView ?? view });
    while (this.net.gate) await this.net.gate;
    if (answer instanceof RecentsError) throw answer;
    return answer;
  }

  async send(request, key) {
    this.net.requests.push({ tab: this.tab, kind: 'send', path: request.path });
    const answer = this.net.model.write(this.list, request, key);
    this.net.commit();
    if (answer.status >= 400) throw new RecentsError(answer.status, answer.body);
    return answer.body;
  }

  async rules() {
    throw new RecentsError(404, null);
  }

  follow({ view, since = null, onTransition, includeEmpty = false }) {
    const net = this.net;
    const list = this.list;
    this.net.requests.push({ tab: this.tab, kind: 'follow', since, view: { ...view }, includeEmpty });
    const stream = {
      list,
      tab: this.tab,
      view: { ...view },
      mode: 'stream',
      delivered: since,
      first: true,
      push() {
        if (!net.streams.has(stream)) return;
        const t = net.model.transition(list, { since: stream.delivered, view });
        // A change of the missed-calls badge alone is news too (docs/API.md, `POST …/seen`).
        const counted = stream.delivered !== null && t.unseenMissed !== net.model.rows(list, view, stream.delivered).unseenMissed;
        const empty = t.deletes.length + t.inserts.length + t.updates.length === 0 && !counted;
        if (!stream.first && (t.to === stream.delivered || (empty && !includeEmpty))) return;
        stream.first = false;
        stream.delivered = t.to;
        onTransition(t);
      },
      stop() {
        net.streams.delete(stream);
      },
    };
    net.streams.add(stream);
    setTimeout(() => stream.push(), 0);
    return stream;
  }
}

/** Waits until `predicate()` holds, or fails after `ms` naming `what`. */
export async function until(predicate, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
