// Property test of sync.js (ListSync: the page without its DOM) against the live server, through a
// fetch that loses requests, drops replies after the server acted, and goes offline, with another
// device writing, reloads (a new ListSync on the same storage) and the link coming back. Every run
// ends with the page's screen equal to `GET rows` and nothing waiting. The seed is printed;
// RECENTS_SEED replays one run. Skipped without the binary (RECENTS_BIN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentsClient } from '../../Web/recents-client.js';
import { ListSync } from '../../Web/sync.js';
import { OutboxStore } from '../../Web/outbox-store.js';
import { decide } from '../../Web/gesture.js';
import { FakeLocks, FakeStorage } from './support/fake-storage.mjs';
import { callMaker, random } from './support/random.mjs';
import { skipWithoutServer, startServer } from './support/live-server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const view = { filter: 'all', limit: 50, tz: 0 };

/** A fetch that fails as a phone's link does: `net.offline` refuses everything; writes may be lost either way. */
function flakyFetch(net, rnd) {
  return async (url, init = {}) => {
    if (net.offline) throw new TypeError('fetch failed (offline)');
    const write = init.method && init.method !== 'GET';
    if (write && rnd() < 0.15) throw new TypeError('fetch failed (lost on the way)');
    const res = await fetch(url, init);
    const key = init.headers?.['Idempotency-Key'];
    if (write && key && res.ok) {
      // What the server did with each key: one answer that wrote at most, the rest replays.
      const replayed = res.headers.get('Idempotent-Replayed') === 'true';
      const seen = net.answers.get(key) ?? { fresh: 0, replayed: 0 };
      seen[replayed ? 'replayed' : 'fresh'] += 1;
      net.answers.set(key, seen);
    }
    if (write && rnd() < 0.2) {
      await res.text();
      net.dropped += 1;
      throw new TypeError('fetch failed (reply lost)');
    }
    return res;
  };
}

async function until(predicate, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await predicate()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('random actions, lost requests and replies, offline spells and reloads end with the page equal to GET rows', { skip: skipWithoutServer, timeout: 120000 }, async () => {
  const seed = Number(process.env.RECENTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`sync live seed ${seed} (RECENTS_SEED=${seed} replays it)`);
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const server = await startServer();
  const net = { offline: false, dropped: 0, answers: new Map() };
  const storage = new FakeStorage();
  const session = new FakeStorage();
  const locks = new FakeLocks();
  const other = new RecentsClient({ list: 'alice', baseURL: server.base });
  const calls = callMaker(rnd);
  const open = () => {
    const store = new OutboxStore({ list: 'alice', storage, session, locks });
    const client = new RecentsClient({ list: 'alice', baseURL: server.base, fetch: flakyFetch(net, rnd) });
    const sync = new ListSync({ client, store, view, onChange: () => {} });
    sync.start();
    return sync;
  };
  let page = null;
  try {
    await other.postCalls(calls(8));
    page = open();
    await until(() => page.replica.server !== null, 10000, 'the first view');
    let acted = 0;
    for (let step = 0; step < 60; step += 1) {
      const r = rnd();
      const screen = page.screen;
      const row = screen.rows.length ? pick(screen.rows) : null;
      if (r < 0.45 && row) {
        const k = rnd();
        if (k < 0.25) page.act({ kind: 'editing', editing: !screen.editing });
        else if (k < 0.5) page.act({ kind: 'reveal', rowId: row.id, revealed: rnd() < 0.7 });
        else if (k < 0.7) {
          const release = { initialOffset: row.revealed ? -74 : 0, offset: -pick([20, 80, 200]), velocity: pick([-400, 0, 400]), buttonWidth: 74 };
          page.act({ kind: 'gesture', rowId: row.id, release, outcome: decide(release, 1).outcome });
        } else {
          page.act({ kind: 'delete', rowId: row.id, callIds: row.callIds, scope: 'me', filter: 'all', tz: 0 });
        }
        acted += 1;
      } else if (r < 0.7) {
        await other.postCalls(calls(1 + Math.floor(rnd() * 2)));
      } else if (r < 0.78) {
        net.offline = !net.offline;
        if (!net.offline) page.kick();
      } else if (r < 0.84) {
        // A reload: the old document goes, and with it its tab's lock, as in a browser (a page
        // paused but kept, which keeps its lock, is the back/forward cache of the next test); what
        // it still had in flight is answered to nobody, so it saves nothing more. The new one, the
        // same tab, finds the queue and the last view in storage.
        page.pause();
        page.store.storage = new FakeStorage();
        locks.release(`recents:tab:${page.store.tab}`);
        await sleep(0);
        page = open();
      } else if (r < 0.9 && row) {
        await other.reveal(pick(row.callIds), true).catch(() => {});
      }
      await sleep(rnd() * 60);
    }
    net.offline = false;
    page.kick();
    await until(async () => {
      const truth = await other.rows(view);
      return page.replica.pending.length === 0 && page.replica.server?.version === truth.version && JSON.stringify(page.screen.rows) === JSON.stringify(truth.rows);
    }, 30000, 'the page to catch up');
    const truth = await other.rows(view);
    assert.equal(JSON.stringify(page.screen.rows), JSON.stringify(truth.rows), `seed ${seed}`);
    assert.equal(page.screen.editing, truth.editing);
    assert.equal(page.screen.revealedRowId, truth.revealedRowId);
    assert.ok(acted > 5, `the run acted (${acted} actions, ${net.dropped} replies dropped)`);
    // Each action was answered fresh once; a retry after a dropped reply was a replay, not a second write.
    const answers = [...net.answers.values()];
    assert.deepEqual(answers.filter((a) => a.fresh > 1), [], `seed ${seed}: a key answered fresh twice`);
    const replays = answers.reduce((n, a) => n + a.replayed, 0);
    if (net.dropped > 0) assert.ok(replays > 0, `seed ${seed}: ${net.dropped} replies dropped, no replay seen`);
  } finally {
    page?.pause();
    server.stop();
  }
});

test('a page paused while it waits for the link goes live again when resumed (the back/forward cache)', { skip: skipWithoutServer, timeout: 60000 }, async () => {
  const server = await startServer();
  const net = { offline: true, dropped: 0, answers: new Map() };
  const rnd = () => 0.99; // no losses besides the offline spell
  const storage = new FakeStorage();
  const other = new RecentsClient({ list: 'alice', baseURL: server.base });
  try {
    await other.postCalls([{ id: 'c-1', peer: { id: 'bob' }, direction: 'incoming', timestamp: 1764460800 }]);
    const store = new OutboxStore({ list: 'alice', storage, session: new FakeStorage() });
    const client = new RecentsClient({ list: 'alice', baseURL: server.base, fetch: flakyFetch(net, rnd) });
    const sync = new ListSync({ client, store, view, onChange: () => {} });
    sync.start(); // offline: no view yet, the first transition is being retried
    await sleep(300);
    assert.equal(sync.replica.server, null);
    sync.pause();
    await sleep(50);
    assert.equal(sync.driving, false, 'the wait ended with the pause');
    net.offline = false;
    sync.resume();
    await until(() => sync.replica.server?.version === 1, 10000, 'the view after resume');
    await other.postCalls([{ id: 'c-2', peer: { id: 'carol' }, direction: 'incoming', timestamp: 1764460900 }]);
    await until(() => sync.screen.rows.length === 2, 10000, 'the follower after resume');
    sync.pause();
  } finally {
    server.stop();
  }
});
