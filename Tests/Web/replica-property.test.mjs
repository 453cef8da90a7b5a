// Property test of replica.js against the in-memory server model: random interleavings of the page's
// own actions, other devices' writes, requests lost on the way, replies dropped (then retried with the
// same Idempotency-Key), transitions delivered late or composed, reconnects (initial transitions),
// filter switches and reloads (the replica rebuilt from what it saved). Every run ends, once the
// network delivers everything, with the screen equal to the server's rows, nothing pending, and
// every action written at most once (never, when it was cancelled out before it was sent). The seed
// is printed; RECENTS_SEED replays one run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../Web/replica.js';
import { actionRequest, applyAction } from '../../Web/actions.js';
import { decide } from '../../Web/gesture.js';
import { ModelServer } from './support/model-server.mjs';
import { random } from './support/random.mjs';

const list = 'alice';
const peers = ['bob', 'carol', 'dave'];

function world(seed) {
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const server = new ModelServer();
  let clock = 1764460800;
  let n = 0;
  const newCalls = (k) =>
    Array.from({ length: k }, () => {
      clock += pick([60, 600, 30000]);
      n += 1;
      return {
        id: `c-${String(n).padStart(3, '0')}`,
        peer: { id: pick(peers), name: pick(['Bob Lee', 'Carol', 'Dave']) },
        direction: pick(['incoming', 'outgoing']),
        endReason: pick(['missed', 'hangup']),
        video: rnd() < 0.2,
        timestamp: rnd() < 0.15 ? clock - 40000 : clock,
      };
    });
  server.postCalls(list, newCalls(8));
  return { rnd, pick, server, newCalls };
}

/** One simulated page: a replica, its request on the way, replies on the way, the view it follows. */
function page(w, view) {
  const replica = new Replica();
  replica.receive(w.server.transition(list, { view }), view);
  return { replica, view, inflight: null, replies: [] };
}

function userAction(w, p) {
  const { rnd, pick } = w;
  const screen = p.replica.screen;
  const r = rnd();
  const row = screen.rows.length ? pick(screen.rows) : null;
  if (r < 0.2 || !row) return p.replica.act({ kind: 'editing', editing: !screen.editing });
  if (r < 0.4) return p.replica.act({ kind: 'reveal', rowId: row.id, revealed: rnd() < 0.7, name: row.peer.name });
  if (r < 0.6) {
    const release = { initialOffset: row.revealed ? -74 : 0, offset: -pick([10, 50, 90, 200]), velocity: pick([-500, -20, 30, 600]), buttonWidth: 74 };
    return p.replica.act({ kind: 'gesture', rowId: row.id, release, outcome: decide(release, 1).outcome, name: row.peer.name });
  }
  if (r < 0.95) {
    return p.replica.act({ kind: 'delete', rowId: row.id, callIds: row.callIds, scope: pick(['me', 'everyone']), filter: p.view.filter, tz: p.view.tz, name: row.peer.name });
  }
  return p.replica.act({ kind: 'clear', scope: 'me' });
}

function otherDevice(w) {
  const { rnd, pick, server } = w;
  const now = server.rows(list, { filter: 'all', limit: 1000, tz: 0 });
  const r = rnd();
  const row = now.rows.length ? pick(now.rows) : null;
  if (r < 0.4 || !row) return server.postCalls(list, w.newCalls(1 + Math.floor(rnd() * 2)));
  if (r < 0.55) return server.write(list, { method: 'PUT', path: '/editing', body: { editing: rnd() < 0.5 } });
  if (r < 0.75) return server.write(list, { method: 'PUT', path: `/rows/${row.id}/reveal`, body: { revealed: true } });
  return server.write(list, { method: 'POST', path: `/rows/${pick(row.callIds)}/options/delete`, query: { filter: 'all', tz: 0 }, body: { scope: 'me' } });
}

function send(w, p) {
  const a = p.replica.next();
  if (!a) return;
  p.replica.sent(a.key);
  p.inflight = a;
}

function deliverRequest(w, p, { dropReply }) {
  const a = p.inflight;
  if (!a) return;
  p.inflight = null;
  const answer = w.server.write(list, actionRequest(a), a.key);
  if (dropReply) p.replica.failed(a.key);
  else p.replies.push({ key: a.key, answer });
}

function deliverReply(p) {
  const r = p.replies.shift();
  if (!r) return null;
  if (r.answer.status === 200) return p.replica.replied(r.key, r.answer.body);
  return p.replica.refused(r.key, r.answer.status, r.answer.body);
}

function deliverTransition(w, p, { initial = false, newView = null } = {}) {
  const from = p.replica.server;
  const view = newView ?? p.view;
  const t = initial ? w.server.transition(list, { view }) : w.server.transition(list, { since: from.version, view, fromView: from.view });
  p.view = view;
  return p.replica.receive(t, view);
}

function reload(p) {
  const saved = JSON.parse(JSON.stringify({ server: p.replica.server, pending: p.replica.pending }));
  // What was on its way is lost with the page; its request may still reach the server.
  return { ...p, replica: new Replica(saved), inflight: null, replies: [], lostInflight: p.inflight };
}

function checkScreen(w, p, label) {
  const truth = w.server.rows(list, p.view);
  assert.equal(p.replica.pending.length, 0, `${label}: nothing pending`);
  assert.equal(p.replica.server.version, truth.version, `${label}: the page shows the current version`);
  assert.equal(JSON.stringify(p.replica.screen.rows), JSON.stringify(truth.rows), `${label}: screen rows`);
  assert.equal(p.replica.screen.editing, truth.editing, `${label}: editing`);
  assert.equal(p.replica.screen.revealedRowId, truth.revealedRowId, `${label}: open row`);
}

function run(seed, steps) {
  const w = world(seed);
  const views = [
    { filter: 'all', limit: 50, tz: 0 },
    { filter: 'missed', limit: 50, tz: 0 },
    { filter: 'all', limit: 4, tz: 120 },
  ];
  let p = page(w, views[0]);
  const acted = new Set();
  const cancelled = new Set();
  for (let step = 0; step < steps; step += 1) {
    const r = w.rnd();
    if (r < 0.22) {
      const before = p.replica.pending.filter((a) => a.state === 'queued' && !a.attempted);
      const { action } = userAction(w, p);
      acted.add(action.key);
      // Actions never sent that the new one cancels out leave the queue with it (Edit then Done).
      const kept = new Set(p.replica.pending.map((a) => a.key));
      for (const a of [...before, action]) if (!kept.has(a.key)) cancelled.add(a.key);
    }
    else if (r < 0.34) send(w, p);
    else if (r < 0.46) deliverRequest(w, p, { dropReply: w.rnd() < 0.25 });
    else if (r < 0.5 && p.inflight) {
      p.replica.failed(p.inflight.key); // lost before it reached the server
      p.inflight = null;
    } else if (r < 0.62) deliverReply(p);
    else if (r < 0.78) deliverTransition(w, p);
    else if (r < 0.8) deliverTransition(w, p, { initial: true });
    else if (r < 0.83) deliverTransition(w, p, { newView: w.pick(views) });
    else if (r < 0.86) {
      p = reload(p);
      if (p.lostInflight && w.rnd() < 0.5) w.server.write(list, actionRequest(p.lostInflight), p.lostInflight.key);
    } else otherDevice(w);
    // The screen is always the server view with the pending actions applied, in order.
    let expected = { ...p.replica.server, rows: p.replica.server.rows };
    for (const a of p.replica.pending) expected = applyAction(expected, a);
    assert.equal(p.replica.screen.editing, expected.editing, `step ${step}: screen = server view + pending`);
    // With nothing pending and the current version shown, the screen is exactly the server's rows.
    if (p.replica.pending.length === 0 && p.replica.server.version === w.server.list(list).version) {
      assert.equal(JSON.stringify(p.replica.screen.rows), JSON.stringify(w.server.rows(list, p.view).rows), `seed ${seed} step ${step}`);
    }
  }
  // The network delivers everything: every action is answered, every answer arrives, the page catches up.
  for (let guard = 0; guard < 1000 && (p.replica.pending.length || p.inflight || p.replies.length); guard += 1) {
    if (p.inflight) deliverRequest(w, p, { dropReply: false });
    else if (p.replies.length) deliverReply(p);
    else if (p.replica.next()) send(w, p);
    else deliverTransition(w, p);
  }
  deliverTransition(w, p);
  checkScreen(w, p, `seed ${seed}`);
  for (const [key, times] of w.server.landed) assert.ok(times <= 1, `seed ${seed}: ${key} wrote ${times} times`);
  // Every action reached the server under its own key, except those cancelled out before they were
  // sent, which never did; and no key was made up on a retry.
  const answered = new Set(w.server.list(list).keys.keys());
  assert.deepEqual([...acted].filter((k) => !answered.has(k) && !cancelled.has(k)), [], `seed ${seed}: actions never sent`);
  assert.deepEqual([...cancelled].filter((k) => answered.has(k)), [], `seed ${seed}: a cancelled action was sent`);
  assert.deepEqual([...answered].filter((k) => !acted.has(k)), [], `seed ${seed}: keys no action had`);
  w.cancelled = cancelled.size;
  return w;
}

test('random interleavings always end with the screen equal to the server rows', () => {
  const base = Number(process.env.RECENTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`replica property seed ${base} (RECENTS_SEED=${base} replays it)`);
  const runs = process.env.RECENTS_SEED ? 1 : 300;
  let landed = 0;
  let cancelled = 0;
  for (let i = 0; i < runs; i += 1) {
    const w = run(base + i, 120);
    landed += w.server.landed.size;
    cancelled += w.cancelled;
  }
  assert.ok(landed > runs, `the runs wrote through actions (${landed} keys landed)`);
  if (!process.env.RECENTS_SEED) assert.ok(cancelled > 0, 'some runs had own actions cancel out before they were sent');
});
