// Tabs of one browser against the live server: ListSync pages sharing one event stream per list
// (stand-ins for Web Locks and BroadcastChannel, the real RecentsClient and server), on different
// views (All, Missed, a shorter window), while another device writes and the pages act; the leader
// crashes mid-run and the next tab (on Missed) takes the stream over. Every page ends equal to `GET rows` of its
// view, with nothing pending, no view ever reloaded, and the server holding one stream for the list.
// The seed is printed; RECENTS_SEED replays one run. Skipped without the binary (RECENTS_BIN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentsClient } from '../../Web/recents-client.js';
import { ListSync } from '../../Web/sync.js';
import { OutboxStore } from '../../Web/outbox-store.js';
import { StreamShare, shareName } from '../../Web/stream-share.js';
import { FakeLocks, FakeStorage } from './support/fake-storage.mjs';
import { FakeChannels, until } from './support/fake-tabs.mjs';
import { callMaker, random } from './support/random.mjs';
import { skipWithoutServer, startServer } from './support/live-server.mjs';

const views = [
  { filter: 'all', limit: 50, tz: 0 },
  { filter: 'missed', limit: 50, tz: 0 },
  { filter: 'all', limit: 3, tz: 0 },
  { filter: 'all', limit: 50, tz: 0 },
];

async function openStreams(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^recents_open_event_streams (\d+)$/m.exec(text)?.[1]);
}

test('tabs sharing one stream on the live server: every view exact through writes, actions and a leader crash', { skip: skipWithoutServer, timeout: 120000 }, async () => {
  const seed = Number(process.env.RECENTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`stream share live seed ${seed} (RECENTS_SEED=${seed} replays it)`);
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const server = await startServer();
  const locks = new FakeLocks();
  const channels = new FakeChannels();
  const storage = new FakeStorage();
  const other = new RecentsClient({ list: 'alice', baseURL: server.base });
  const calls = callMaker(rnd);
  const loads = new Map();
  const tabs = views.map((view, i) => {
    const client = new RecentsClient({ list: 'alice', baseURL: server.base });
    const transition = client.transition.bind(client);
    // Counts loads of a whole view (no `since`): a page that never lost its place makes one.
    client.transition = (request) => {
      if (request.since === null || request.since === undefined) loads.set(i, (loads.get(i) ?? 0) + 1);
      return transition(request);
    };
    const store = new OutboxStore({ list: 'alice', storage, session: new FakeStorage(), locks });
    const share = new StreamShare({ list: 'alice', locks, openChannel: (name) => channels.channel(name) });
    const sync = new ListSync({ client, store, view, share, onChange: () => {} });
    return { i, sync, share, dead: false };
  });
  const live = () => tabs.filter((t) => !t.dead);
  try {
    await other.postCalls(calls(6));
    for (const t of tabs) t.sync.start();
    await until(() => tabs.every((t) => t.sync.replica.server && t.sync.follower), 10000, 'every tab live');
    for (let step = 0; step < 40; step += 1) {
      const r = rnd();
      if (step === 20) {
        // The leader's tab crashes: its stream, channel and locks go with it.
        const leader = tabs.find((t) => t.share.leading);
        leader.dead = true;
        leader.sync.stopped = true;
        leader.sync.follower?.stop();
        leader.share.channel?.close();
        locks.release(shareName('alice'));
        locks.release(`recents:tab:${leader.sync.store.tab}`);
        // A write at once: the dead leader never relays it; the next one's stream brings it.
        await other.postCalls(calls(1));
      } else if (r < 0.45) {
        await other.postCalls(calls(1 + Math.floor(rnd() * 2)));
      } else if (r < 0.7) {
        const t = pick(live());
        const screen = t.sync.screen;
        const row = screen.rows.length ? pick(screen.rows) : null;
        if (row && rnd() < 0.6) t.sync.act({ kind: 'reveal', rowId: row.id, revealed: rnd() < 0.7 });
        else t.sync.act({ kind: 'editing', editing: !screen.editing });
      } else if (r < 0.85) {
        const rows = (await other.rows(views[0])).rows;
        if (rows.length) await other.reveal(pick(rows).id, rnd() < 0.5).catch(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, rnd() * 40));
    }
    const settled = async () => {
      for (const t of live()) {
        const truth = await other.rows(t.sync.replica.server?.view ?? views[t.i]);
        const s = t.sync;
        if (s.replica.pending.length || s.replica.server?.version !== truth.version) return false;
        if (JSON.stringify(s.screen.rows) !== JSON.stringify(truth.rows) || s.screen.editing !== truth.editing) return false;
      }
      return (await openStreams(server.base)) === 1;
    };
    await until(settled, 30000, 'every tab at GET rows of its view, on one stream');
    // The lock goes in request order: the Missed tab leads now, and a call it does not show still
    // reaches the tabs of the other views (the stream sends every version: `includeEmpty`).
    assert.ok(tabs[1].share.leading, `seed ${seed}: the next tab in line leads`);
    await other.postCalls([{ id: 'hidden', peer: { id: 'erin' }, direction: 'outgoing', timestamp: 1900000000 }]);
    await until(settled, 10000, 'the call the Missed view does not show, in the other tabs');
    assert.equal(live().length, tabs.length - 1);
    assert.equal(live().filter((t) => t.share.leading).length, 1, `seed ${seed}: one leader`);
    for (const t of live()) assert.equal(loads.get(t.i), 1, `seed ${seed}: tab ${t.i} loaded its view once`);
  } finally {
    for (const t of live()) t.sync.pause();
    server.stop();
  }
});
