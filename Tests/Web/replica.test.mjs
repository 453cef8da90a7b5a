// Unit tests of replica.js and actions.js against the in-memory server model: own actions show at once,
// the server's confirmation animates nothing more, refusals roll back (with a notice unless the row is
// gone anyway), another device's change wins in the server's order, and a reload keeps the queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replica } from '../../Web/replica.js';
import { actionRequest, changesNothing, removeCalls } from '../../Web/actions.js';
import { decide } from '../../Web/gesture.js';
import { Locale } from '../../Web/format.js';
import { ModelServer } from './support/model-server.mjs';
import { random } from './support/random.mjs';

const view = { filter: 'all', limit: 50, tz: 0 };
const english = new Locale('en');
const T = 1764460800;
const call = (id, peer, ts, extra = {}) => ({ id, peer: { id: peer, name: peer.toUpperCase() }, direction: 'incoming', endReason: 'missed', timestamp: ts, ...extra });

function setup(calls) {
  const server = new ModelServer();
  server.postCalls('a', calls);
  const replica = new Replica();
  replica.receive(server.transition('a', { view }), view);
  return { server, replica };
}

/** Sends the next action, lets the server apply it, and returns the reply (not yet given to the replica). */
function land(server, replica) {
  const a = replica.next();
  replica.sent(a.key);
  return { key: a.key, answer: server.write('a', actionRequest(a), a.key) };
}

const follow = (server, replica) => replica.receive(server.transition('a', { since: replica.server.version, view }), view);
const ids = (rows) => rows.map((r) => r.id);
const empty = (d) => d.deletes.length + d.inserts.length + d.updates.length === 0;

test('a delete shows at once, the rows around it join as the server joins them, and the confirmation animates nothing', () => {
  // Bob, Carol, Bob on one day: deleting Carol makes the two Bob rows one.
  const { server, replica } = setup([call('c1', 'bob', T + 100), call('c2', 'carol', T + 200), call('c3', 'bob', T + 300)]);
  assert.deepEqual(ids(replica.screen.rows), ['c3', 'c2', 'c1']);
  const row = replica.screen.rows[1];
  const { diff } = replica.act({ kind: 'delete', rowId: 'c2', callIds: row.callIds, scope: 'me', filter: 'all', tz: 0 });
  assert.deepEqual(diff.deletes.map((d) => d.id), ['c2', 'c1']);
  assert.deepEqual(diff.updates.map((u) => [u.id, u.row.count]), [['c3', 2]]);
  const reply = land(server, replica);
  assert.ok(empty(replica.replied(reply.key, reply.answer.body).diff), 'the reply changes nothing on screen');
  assert.equal(replica.pending.length, 1, 'it waits for the version its reply names');
  const confirmed = follow(server, replica);
  assert.ok(empty(confirmed.diff), `the transition animates nothing: ${JSON.stringify(confirmed.diff)}`);
  assert.equal(replica.pending.length, 0);
  assert.equal(JSON.stringify(replica.screen.rows), JSON.stringify(server.rows('a', view).rows));
});

test('a transition that arrives before the reply changes nothing, and the reply then retires the action', () => {
  const { server, replica } = setup([call('c1', 'bob', T), call('c2', 'carol', T + 100)]);
  replica.act({ kind: 'editing', editing: true });
  const reply = land(server, replica);
  assert.ok(empty(follow(server, replica).diff));
  assert.equal(replica.pending.length, 1);
  assert.ok(empty(replica.replied(reply.key, reply.answer.body).diff));
  assert.equal(replica.pending.length, 0);
  assert.equal(replica.screen.editing, true);
});

test('a refusal rolls the row back and says so; a 404 for a row gone anyway is quiet', () => {
  const { server, replica } = setup([call('c1', 'bob', T), call('c2', 'carol', T + 100)]);
  const row = replica.screen.rows[0];
  replica.act({ kind: 'delete', rowId: row.id, callIds: row.callIds, scope: 'me', filter: 'all', tz: 0, name: 'CAROL' });
  const a = replica.next();
  replica.sent(a.key);
  const back = replica.refused(a.key, 409, { detail: 'conflict' });
  assert.deepEqual(back.diff.inserts.map((i) => i.id), ['c2'], 'the row comes back');
  assert.deepEqual(back.notices[0], { action: { key: 'delete', name: 'CAROL' }, status: 409, detail: 'conflict' });
  assert.match(english.notice(back.notices[0]), /Couldn't delete CAROL: it changed on another device/);

  replica.act({ kind: 'delete', rowId: 'c2', callIds: ['c2'], scope: 'me', filter: 'all', tz: 0 });
  server.write('a', { method: 'POST', path: '/rows/c2/options/delete', query: { filter: 'all', tz: 0 }, body: { scope: 'me' } });
  follow(server, replica);
  const b = replica.next();
  replica.sent(b.key);
  const quiet = replica.refused(b.key, 404, null);
  assert.ok(empty(quiet.diff));
  assert.deepEqual(quiet.notices, []);
});

test('a 404 for a row gone anyway is quiet while an earlier delete shows its neighbours joined', () => {
  // Bob, Carol, Bob on one day, and Dave: deleting Carol shows one Bob row, made on the page.
  const { server, replica } = setup([call('c1', 'bob', T + 100), call('c2', 'carol', T + 200), call('c3', 'bob', T + 300), call('c4', 'dave', T + 400)]);
  replica.act({ kind: 'delete', rowId: 'c2', callIds: ['c2'], scope: 'me', filter: 'all', tz: 0, name: 'CAROL' });
  replica.act({ kind: 'delete', rowId: 'c4', callIds: ['c4'], scope: 'me', filter: 'all', tz: 0, name: 'DAVE' });
  // Another device deletes Dave's call first: the page's delete of it will be a 404.
  server.write('a', { method: 'POST', path: '/rows/c4/options/delete', query: { filter: 'all', tz: 0 }, body: { scope: 'me' } });
  follow(server, replica);
  assert.deepEqual(replica.screen.rows.map((r) => [r.id, r.count]), [['c3', 2]]);
  const quiet = replica.refused(replica.pending[1].key, 404, null);
  assert.ok(empty(quiet.diff));
  assert.deepEqual(quiet.notices, []);
});

test("another device's change that wins brings the row back with a notice", () => {
  // The page deletes Bob's row; before it lands, another device adds an older call that joins the
  // row (same id): the delete takes it too, and the row stays hidden throughout.
  const { server, replica } = setup([call('c1', 'bob', T + 100), call('c2', 'carol', T + 200)]);
  replica.act({ kind: 'delete', rowId: 'c1', callIds: ['c1'], scope: 'me', filter: 'all', tz: 0, name: 'BOB' });
  server.postCalls('a', [call('c0', 'bob', T + 50)]);
  follow(server, replica);
  assert.deepEqual(ids(replica.screen.rows), ['c2'], "Bob's row stays hidden while the delete waits");
  const { key, answer } = land(server, replica);
  assert.equal(answer.status, 200);
  replica.replied(key, answer.body);
  assert.ok(empty(follow(server, replica).diff));
  assert.deepEqual(ids(replica.screen.rows), ['c2']);

  // A newer call joins the row instead: the row is now named by it, so the delete is a 404 and the
  // row (of two calls) comes back.
  const s2 = setup([call('d1', 'bob', T + 10), call('d2', 'carol', T + 100)]);
  s2.replica.act({ kind: 'delete', rowId: 'd1', callIds: ['d1'], scope: 'me', filter: 'all', tz: 0, name: 'BOB' });
  s2.server.postCalls('a', [call('d0', 'bob', T + 20)]); // newer: the row is now d0
  const came = s2.replica.receive(s2.server.transition('a', { since: s2.replica.server.version, view }), view);
  assert.deepEqual(came.diff.inserts.map((i) => [i.id, i.row.count]), [['d0', 2]], 'the row is back, named by the new call');
  const r = land(s2.server, s2.replica);
  assert.equal(r.answer.status, 404);
  const back = s2.replica.refused(r.key, 404, r.answer.body);
  assert.match(english.notice(back.notices[0]), /Couldn't delete BOB: it changed on another device/);
});

test('the server decides the order: an open row from another device after mine wins', () => {
  const { server, replica } = setup([call('c1', 'bob', T), call('c2', 'carol', T + 100)]);
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: true });
  const mine = land(server, replica);
  server.write('a', { method: 'PUT', path: '/rows/c2/reveal', body: { revealed: true } });
  assert.equal(replica.screen.revealedRowId, 'c1');
  follow(server, replica);
  assert.equal(replica.screen.revealedRowId, 'c1', 'mine shows until its reply');
  const change = replica.replied(mine.key, mine.answer.body);
  assert.equal(replica.screen.revealedRowId, 'c2');
  assert.deepEqual(change.diff.updates.map((u) => u.id).sort(), ['c1', 'c2']);
});

test('actions go one at a time, in order; a reload sends what was on its way again with the same key', () => {
  const { server, replica } = setup([call('c1', 'bob', T)]);
  const first = replica.act({ kind: 'editing', editing: true }).action;
  const second = replica.act({ kind: 'reveal', rowId: 'c1', revealed: true }).action;
  assert.equal(replica.next().key, first.key);
  replica.sent(first.key);
  assert.equal(replica.next(), null, 'nothing else while one is on its way');
  const reloaded = new Replica(JSON.parse(JSON.stringify({ server: replica.server, pending: replica.pending })));
  assert.deepEqual(reloaded.pending.map((a) => [a.key, a.state]), [[first.key, 'queued'], [second.key, 'queued']]);
  assert.equal(reloaded.screen.revealedRowId, 'c1');
  assert.equal(reloaded.screen.editing, true);
  assert.equal(reloaded.waiting, 2);
  const x = land(server, reloaded);
  assert.equal(x.key, first.key);
  const again = server.write('a', actionRequest(first), first.key);
  assert.equal(again.replayed, true, 'the retry is a replay');
});

test('removeCalls keeps rows that lose nothing as the same objects', () => {
  const rows = [
    { id: 'a', peer: { id: 'p' }, callIds: ['a'], count: 1, timestamp: T, missed: false, video: false },
    { id: 'b', peer: { id: 'q' }, callIds: ['b'], count: 1, timestamp: T - 5, missed: false, video: false },
  ];
  assert.equal(removeCalls(rows, ['zzz'], 0), rows);
  assert.equal(removeCalls(rows, ['b'], 0)[0], rows[0]);
});

test('property: with no other device, the confirmation of any own action animates nothing', () => {
  const seed = Number(process.env.RECENTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`confirmation property seed ${seed}`);
  const rnd = random(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  for (let run = 0; run < 300; run += 1) {
    const calls = Array.from({ length: 3 + Math.floor(rnd() * 10) }, (_, i) =>
      call(`c-${String(i).padStart(2, '0')}`, pick(['bob', 'carol']), T + i * pick([30, 30, 40000]), {
        endReason: pick(['missed', 'hangup']),
        direction: pick(['incoming', 'outgoing']),
        video: rnd() < 0.2,
      }),
    );
    const { server, replica } = setup(calls);
    const row = pick(replica.screen.rows);
    const release = { initialOffset: row.revealed ? -74 : 0, offset: -pick([20, 80, 200]), velocity: pick([-300, 0, 300]), buttonWidth: 74 };
    const kind = pick(['delete', 'delete', 'reveal', 'gesture', 'editing', 'clear']);
    replica.act({ kind, rowId: row.id, callIds: row.callIds, revealed: true, editing: true, scope: 'me', filter: 'all', tz: 0, release, outcome: decide(release, 1).outcome });
    const shown = JSON.stringify(replica.screen.rows);
    const { key, answer } = land(server, replica);
    replica.replied(key, answer.body);
    const confirmed = follow(server, replica);
    assert.ok(empty(confirmed.diff), `seed ${seed} run ${run} ${kind}: ${JSON.stringify(confirmed.diff)}`);
    assert.equal(JSON.stringify(replica.screen.rows), shown);
  }
});

test('an action that changes nothing on screen is not an action (nothing to send)', () => {
  const { replica } = setup([call('c1', 'bob', T), call('c2', 'carol', T + 100)]);
  const closed = { kind: 'gesture', rowId: 'c1', outcome: 'closed' };
  assert.equal(changesNothing(replica.screen, closed), true, 'a swipe that leaves a closed row closed');
  assert.equal(changesNothing(replica.screen, { kind: 'gesture', rowId: 'c1', outcome: 'selected' }), true);
  assert.equal(changesNothing(replica.screen, { kind: 'gesture', rowId: 'c1', outcome: 'open' }), false);
  assert.equal(changesNothing(replica.screen, { kind: 'editing', editing: false }), true);
  assert.equal(changesNothing(replica.screen, { kind: 'editing', editing: true }), false);
  assert.equal(changesNothing(replica.screen, { kind: 'delete', rowId: 'c1', callIds: ['c1'] }), false);
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: true });
  assert.equal(changesNothing(replica.screen, { kind: 'gesture', rowId: 'c1', outcome: 'selected' }), false, 'closing an open row');
  assert.equal(changesNothing(replica.screen, { kind: 'reveal', rowId: 'c1', revealed: true }), true);
});

test('own actions that cancel out before any was sent leave nothing waiting (Edit then Done, open then close)', () => {
  const { replica } = setup([call('c1', 'bob', T), call('c2', 'carol', T + 100)]);
  replica.act({ kind: 'editing', editing: true });
  replica.act({ kind: 'editing', editing: false });
  assert.equal(replica.waiting, 0, 'Edit then Done');
  replica.act({ kind: 'reveal', rowId: 'c2', revealed: true });
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: true });
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: false });
  assert.equal(replica.waiting, 0, 'open one row, then another, then close it');
  assert.equal(replica.screen.revealedRowId, null);
  // Edit stays when only what follows it cancels out.
  replica.act({ kind: 'editing', editing: true });
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: true });
  replica.act({ kind: 'reveal', rowId: 'c1', revealed: false });
  assert.deepEqual(replica.pending.map((a) => a.kind), ['editing']);
  // Done on a row open on the server closes it too: not a no-op, so both go.
  const { server, replica: other } = setup([call('c1', 'bob', T)]);
  server.write('a', { method: 'PUT', path: '/rows/c1/reveal', body: { revealed: true } });
  follow(server, other);
  other.act({ kind: 'editing', editing: true });
  other.act({ kind: 'editing', editing: false });
  assert.equal(other.waiting, 2);
});

test('an action that was sent is never dropped as cancelled out: it may have landed', () => {
  const { replica } = setup([call('c1', 'bob', T)]);
  replica.act({ kind: 'editing', editing: true });
  const a = replica.next();
  replica.sent(a.key);
  replica.failed(a.key);
  replica.act({ kind: 'editing', editing: false });
  assert.equal(replica.waiting, 2, 'the failed Edit may be on the server: Done must follow it');
  // Also after a reload, which sends it again.
  const reloaded = new Replica({ server: replica.server, pending: replica.pending });
  assert.ok(reloaded.pending[0].attempted);
});
