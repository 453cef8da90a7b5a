// Tests of stream-share.js and ListSync's leader and relay, with stand-ins for Web Locks,
// BroadcastChannel and the server (the in-memory model, its event streams as the server's): one
// stream per list whatever the number of tabs, followers of other views asking for their own
// transition once per burst, a leader that dies mid-transition, and the hand-over on pagehide.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ListSync } from '../../Web/sync.js';
import { OutboxStore } from '../../Web/outbox-store.js';
import { StreamShare, relayDecision, shareName } from '../../Web/stream-share.js';
import { sameView } from '../../Web/recents-client.js';
import { ModelServer } from './support/model-server.mjs';
import { FakeLocks, FakeStorage } from './support/fake-storage.mjs';
import { FakeChannels, ModelNetwork, until } from './support/fake-tabs.mjs';

const all = { filter: 'all', limit: 50, tz: 0 };
const missed = { filter: 'missed', limit: 50, tz: 0 };
let clock = 1764460800;
const call = (id, endReason = 'missed', direction = 'incoming') => {
  clock += 600;
  return { id, peer: { id: `p-${id}`, name: `Peer ${id}` }, direction, endReason, timestamp: clock };
};

function browser() {
  const model = new ModelServer();
  model.postCalls('alice', [call('a1'), call('a2', 'hangup', 'outgoing')]);
  model.postCalls('bob', [call('b1')]);
  return { model, net: new ModelNetwork(model), locks: new FakeLocks(), channels: new FakeChannels(), storage: new FakeStorage(), tabs: [] };
}

/** A new tab of `list` on `view`, started as app.js starts it. */
function open(b, list, view = all) {
  const id = b.tabs.length + 1;
  const store = new OutboxStore({ list, storage: b.storage, session: new FakeStorage(), locks: b.locks });
  const share = new StreamShare({ list, locks: b.locks, openChannel: (name) => b.channels.channel(name) });
  const sync = new ListSync({ client: b.net.client(list, id), store, view, share, onChange: () => {} });
  const t = { id, list, sync, share, dead: false };
  b.tabs.push(t);
  sync.start();
  return t;
}

/** The tab's code stops, its connections and channel close, and the browser frees its locks. */
function crash(b, t) {
  t.dead = true;
  t.sync.stopped = true;
  t.sync.follower?.stop();
  t.share.channel?.close();
  if (t.share.leading) b.locks.release(shareName(t.list));
  b.locks.release(`recents:tab:${t.sync.store.tab}`);
}

const live = (b, list) => b.tabs.filter((t) => t.list === list && !t.dead);

/** Every live tab of `list` shows the model's rows for its view at the list's version, nothing pending. */
function converged(b, list) {
  return live(b, list).every(({ sync }) => {
    const server = sync.replica.server;
    if (!server || sync.replica.pending.length || !sameView(server.view, sync.wanted)) return false;
    const truth = b.model.rows(list, server.view);
    return server.version === truth.version && JSON.stringify(sync.screen.rows) === JSON.stringify(truth.rows) && sync.screen.editing === truth.editing;
  });
}

/** A leader tab on All, then follower tabs on `views`, every one live: `[leader, ...followers]`. */
async function leaderAndFollowers(b, ...views) {
  const leader = open(b, 'alice', all);
  await until(() => leader.share.leading && converged(b, 'alice'), 2000, 'the leader');
  const followers = views.map((view) => open(b, 'alice', view));
  await until(() => converged(b, 'alice'), 2000, 'the followers');
  return [leader, ...followers];
}

const requests = (b, t, kind) => b.net.requests.filter((r) => r.tab === t.id && r.kind === kind);
/** Loads of a whole view (a resync, or the first load): a tab that never lost its place made one. */
const loads = (b, t) => requests(b, t, 'transition').filter((r) => r.since === null).length;

test('relayDecision: apply its own view from its version, fetch for any other newer version, ignore the rest', () => {
  const server = { version: 5, epoch: 'e', view: all };
  const t = (from, to, epoch = 'e') => ({ from, to, epoch });
  assert.equal(relayDecision(server, all, t(5, 6)), 'apply');
  assert.equal(relayDecision(server, { ...all, limit: 100 }, t(5, 6)), 'fetch', 'another window of the list');
  assert.equal(relayDecision(server, missed, t(5, 6)), 'fetch', 'another filter');
  assert.equal(relayDecision(server, all, t(6, 7)), 'fetch', 'a gap: the version between is missing');
  assert.equal(relayDecision(server, all, t(null, 7)), 'fetch', "the leader's resync");
  assert.equal(relayDecision(server, all, t(4, 5)), 'ignore', 'nothing newer');
  assert.equal(relayDecision(server, missed, t(3, 4)), 'ignore');
  assert.equal(relayDecision(server, all, t(1, 2, 'other')), 'fetch', 'another database');
  assert.equal(relayDecision(null, all, t(5, 6)), 'ignore', 'still loading its own view');
});

test('one stream per list whatever the tabs; followers connect nothing and send their own actions', async () => {
  const b = browser();
  const alice = [open(b, 'alice'), open(b, 'alice'), open(b, 'alice')];
  const bob = [open(b, 'bob'), open(b, 'bob')];
  await until(() => converged(b, 'alice') && converged(b, 'bob') && b.net.streams.size === 2, 2000, 'every tab live');
  assert.equal(b.net.streamsOf('alice').length, 1);
  assert.equal(b.net.streamsOf('bob').length, 1);
  assert.deepEqual(alice.map((t) => t.share.leading), [true, false, false]);
  assert.deepEqual(bob.map((t) => t.share.leading), [true, false]);
  for (const t of [alice[1], alice[2], bob[1]]) assert.equal(requests(b, t, 'follow').length, 0, `tab ${t.id} follows nothing`);
  assert.equal(b.net.streamsOf('alice')[0].tab, alice[0].id);
  assert.ok(requests(b, alice[0], 'follow').every((r) => r.includeEmpty), 'the leader asks for every version');

  b.net.postCalls('alice', [call('a3')]);
  alice[2].sync.act({ kind: 'editing', editing: true });
  await until(() => converged(b, 'alice'), 2000, 'the write from outside and the follower’s Edit in every tab');
  assert.equal(b.model.rows('alice', all).editing, true);
  assert.deepEqual(requests(b, alice[2], 'send').map((r) => r.path), ['/editing'], 'sent by the tab that acted');
  assert.equal(requests(b, alice[0], 'send').length + requests(b, alice[1], 'send').length, 0);
  for (const t of [...alice, ...bob]) assert.equal(loads(b, t), 1, `tab ${t.id} never reloaded its view`);
  for (const t of b.tabs) t.sync.pause();
});

test('a follower of another view asks for its own transition, once per burst of relayed versions', async () => {
  const b = browser();
  const [, onMissed, scrolled] = await leaderAndFollowers(b, missed, { ...all, limit: 100 });
  const before = (t) => requests(b, t, 'transition').length;
  const counts = [before(onMissed), before(scrolled)];

  // A call the Missed view does not show: its version still reaches that tab (an empty transition).
  b.net.postCalls('alice', [call('out-1', 'hangup', 'outgoing')]);
  await until(() => converged(b, 'alice'), 2000, 'the version the Missed view does not show');
  assert.deepEqual([before(onMissed), before(scrolled)], counts.map((n) => n + 1), 'one short request each');

  // Five versions while their requests are on their way: one more request each, not five.
  b.net.hold();
  b.net.postCalls('alice', [call('m-1')]);
  await until(() => before(onMissed) === counts[0] + 2 && before(scrolled) === counts[1] + 2, 2000, 'the requests for m-1');
  for (let k = 2; k <= 5; k += 1) b.net.postCalls('alice', [call(`m-${k}`)]);
  await until(() => b.channels.posted.filter((m) => m.t?.to === b.model.list('alice').version).length === 1, 2000, 'the relay of m-5');
  b.net.releaseHeld();
  await until(() => converged(b, 'alice'), 2000, 'every view at the last version');
  assert.deepEqual([before(onMissed), before(scrolled)], counts.map((n) => n + 3), 'the answer, then one request for the four versions relayed meanwhile');
  assert.equal(onMissed.sync.screen.rows.filter((r) => r.id.startsWith('m-')).length, 5);
  assert.deepEqual([loads(b, onMissed), loads(b, scrolled)], [1, 1]);
  for (const t of b.tabs) t.sync.pause();
});

test('a leader that dies mid-transition: the next tab takes the stream over from its own version, nothing lost or applied twice', async () => {
  const b = browser();
  const [first, second, third] = await leaderAndFollowers(b, all, missed);
  const shown = second.sync.replica.server.version;
  // The leader's stream hands it a transition; it dies before any other tab hears of it.
  first.share.publish = () => crash(b, first);
  b.net.postCalls('alice', [call('lost-in-flight')]);
  await until(() => first.dead, 2000, 'the leader to die');
  await until(() => second.share.leading || third.share.leading, 2000, 'a new leader');
  await until(() => converged(b, 'alice') && b.net.streamsOf('alice').length === 1, 2000, 'the remaining tabs to catch up');
  const next = second.share.leading ? second : third;
  const follows = requests(b, next, 'follow');
  assert.equal(follows.length, 1);
  assert.equal(follows[0].since, next === second ? shown : follows[0].since, 'the new stream starts where its tab was');
  assert.notEqual(follows[0].since, null, 'no reload of the whole view');
  for (const t of live(b, 'alice')) {
    assert.ok(t.sync.screen.rows.some((r) => r.id === 'lost-in-flight'), `tab ${t.id} shows the call the dead leader never relayed`);
    assert.equal(loads(b, t), 1, `tab ${t.id} never reloaded its view`);
  }
  b.net.postCalls('alice', [call('after')]);
  await until(() => converged(b, 'alice') && live(b, 'alice').every((t) => t.sync.screen.rows[0]?.id === 'after'), 2000, 'the next call in every tab');
  for (const t of b.tabs) t.sync.pause();
});

test('pagehide hands the stream to the next tab; the tab back from the cache follows the new leader', async () => {
  const b = browser();
  const [a, c] = await leaderAndFollowers(b, all);
  a.sync.pause();
  await until(() => c.share.leading && b.net.streamsOf('alice').length === 1 && b.net.streamsOf('alice')[0].tab === c.id, 2000, 'the hand-over');
  assert.equal(a.share.leading, false);
  a.sync.resume();
  b.net.postCalls('alice', [call('while-a-was-away')]);
  await until(() => converged(b, 'alice'), 2000, 'both tabs');
  assert.equal(b.net.streamsOf('alice').length, 1);
  assert.equal(a.share.leading, false, 'back in line, behind the new leader');
  assert.deepEqual([loads(b, a), loads(b, c)], [1, 1]);
  for (const t of b.tabs) t.sync.pause();
});

test('a version relayed from another database makes a follower ask once, not again and again', async () => {
  const b = browser();
  const [a, c] = await leaderAndFollowers(b, all);
  const before = requests(b, c, 'transition').length;
  // A tab of the list still on a database the server replaced relays its version.
  const stale = b.channels.channel(shareName('alice'));
  stale.postMessage({ type: 'transition', view: all, t: { from: 1, to: 9, epoch: 'replaced', deletes: [], inserts: [], updates: [] } });
  await until(() => requests(b, c, 'transition').length > before && !c.sync.driving, 2000, 'the follower to ask');
  b.net.postCalls('alice', [call('next')]);
  await until(() => converged(b, 'alice') && c.sync.screen.rows[0]?.id === 'next', 2000, 'the next call');
  assert.equal(requests(b, c, 'transition').length, before + 1, 'one request for the other epoch, none since');
  stale.close();
  for (const t of b.tabs) t.sync.pause();
});

test('a tab that cannot have the lock follows the list itself instead of waiting for ever', async () => {
  const channels = new FakeChannels();
  const share = new StreamShare({
    list: 'alice',
    locks: { request: () => Promise.reject(Object.assign(new Error('no locks in this document'), { name: 'SecurityError' })) },
    openChannel: (name) => channels.channel(name),
  });
  let led = 0;
  share.join({ onLead: () => (led += 1), onRelay: () => {} });
  await until(() => led === 1, 2000, 'the tab to lead');
  assert.equal(share.leading, true);
  share.leave();
  const left = new StreamShare({ list: 'alice', locks: new FakeLocks(), openChannel: (name) => channels.channel(name) });
  const holder = new StreamShare({ list: 'alice', locks: left.locks, openChannel: (name) => channels.channel(name) });
  holder.join({ onLead: () => {}, onRelay: () => {} });
  await until(() => holder.leading, 2000, 'the holder');
  left.join({ onLead: () => (led += 1), onRelay: () => {} });
  left.leave(); // its waiting request is aborted: it never leads
  holder.leave();
  await until(() => left.locks.held.size === 0, 2000, 'the lock to be free');
  assert.equal(led, 1);
  assert.equal(left.leading, false);
});
