// Randomized replay against a live server: start the real binary on a free loopback port with a
// temporary database, make random writes, and after each write apply the transitions the server
// sends (from the previous version, and composed from an older one) with applyTransition; every
// result must equal `GET rows`. Skipped when the binary is missing (RECENTS_BIN, default
// .build/debug/recents). The seed is printed; RECENTS_SEED replays one run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentsClient, RecentsError, applyTransition } from '../../Web/recents-client.js';
import { random } from './support/random.mjs';
import { skipWithoutServer, startServer } from './support/live-server.mjs';

const strip = (rows) => JSON.stringify(rows);

test('transitions recorded from a live server, replayed with applyTransition, equal GET rows', { skip: skipWithoutServer }, async () => {
  const seed = Number(process.env.RECENTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`live replay seed ${seed} (RECENTS_SEED=${seed} replays it)`);
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const server = await startServer();
  try {
    const alice = new RecentsClient({ list: 'alice', baseURL: server.base });
    const views = [
      { filter: 'all', limit: 50, tz: 0 },
      { filter: 'missed', limit: 7, tz: 0 },
      { filter: 'all', limit: 5, tz: 120 },
    ];
    const peers = ['bob', 'carol', 'dave'];
    let clock = 1764460800;
    let next = 0;
    // Per view: what a client shows, and an older version it showed (for composed transitions).
    const shown = views.map((view) => ({ view, version: null, epoch: null, rows: [], history: [] }));
    const catchUp = async (s) => {
      const t = await alice.transition({ since: s.version, epoch: s.epoch, view: s.view });
      s.rows = applyTransition(s.rows, t);
      s.version = t.to;
      s.epoch = t.epoch;
      s.history.push({ version: t.to, rows: s.rows });
      if (s.history.length > 10) s.history.shift();
    };
    for (const s of shown) await catchUp(s);
    for (let step = 0; step < 120; step += 1) {
      const current = (await alice.rows(views[0])).rows;
      const ids = current.flatMap((r) => r.callIds);
      const r = rnd();
      try {
        if (r < 0.45 || ids.length === 0) {
          const n = 1 + Math.floor(rnd() * 3);
          const calls = Array.from({ length: n }, () => {
            clock += pick([60, 600, 40000]);
            next += 1;
            return {
              id: `c-${next}`,
              peer: { id: pick(peers), name: pick(['Bob Lee', 'Carol', 'Dave']) },
              direction: pick(['incoming', 'outgoing']),
              endReason: pick(['missed', 'hangup']),
              video: rnd() < 0.3,
              timestamp: rnd() < 0.1 ? clock - 90000 : clock,
            };
          });
          await alice.postCalls(calls);
        } else if (r < 0.6) {
          await alice.request('DELETE', `/calls/${pick(ids)}`);
        } else if (r < 0.72) {
          await alice.reveal(pick(ids), rnd() < 0.7);
        } else if (r < 0.8) {
          await alice.setEditing(rnd() < 0.5);
        } else if (r < 0.9) {
          await alice.confirmOption(pick(current).id, 'delete', 'me', views[0]);
        } else if (r < 0.95) {
          await alice.gesture(pick(ids), { initialOffset: 0, offset: -pick([30, 80, 200]), velocity: -pick([10, 500]) });
        } else {
          await alice.request('DELETE', '');
        }
      } catch (e) {
        if (!(e instanceof RecentsError && e.status === 404)) throw e;
      }
      for (const s of shown) {
        if (rnd() < 0.3 && s.history.length > 1) {
          // A composed transition from an older shown version must land on the same rows.
          const old = pick(s.history);
          try {
            const t = await alice.transition({ since: old.version, epoch: s.epoch, view: s.view });
            const composed = applyTransition(old.rows, t);
            const truth = await alice.rows(s.view);
            if (truth.version === t.to) assert.equal(strip(composed), strip(truth.rows), `composed from ${old.version}, seed ${seed}`);
          } catch (e) {
            if (!(e instanceof RecentsError && e.status === 410)) throw e;
          }
        }
        try {
          await catchUp(s);
        } catch (e) {
          if (!(e instanceof RecentsError && e.status === 410)) throw e;
          s.version = null;
          s.history = [];
          await catchUp(s);
        }
        const truth = await alice.rows(s.view);
        assert.equal(truth.version, s.version);
        assert.equal(strip(s.rows), strip(truth.rows), `step ${step}, view ${JSON.stringify(s.view)}, seed ${seed}`);
      }
    }
  } finally {
    server.stop();
  }
});
