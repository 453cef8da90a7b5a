// Unit tests of recents-client.js: applyTransition's index rules and the event-stream parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamParser, RecentsClient, applyTransition, backoffDelay } from '../../Web/recents-client.js';

const row = (id, extra = {}) => ({ id, ...extra });

test('the worked example of docs/API.md: deletes descending, inserts ascending, updates in place', () => {
  const rows = [row('c-1003'), row('c-1002'), row('c-1001')];
  const t = {
    from: 2,
    to: 5,
    deletes: [
      { index: 0, id: 'c-1003' },
      { index: 2, id: 'c-1001' },
    ],
    inserts: [{ index: 0, id: 'c-1004', row: row('c-1004', { count: 2 }), directionHint: 'down' }],
    updates: [{ index: 1, previousIndex: 1, id: 'c-1002', row: row('c-1002', { revealed: true }) }],
    count: 2,
  };
  const out = applyTransition(rows, t);
  assert.deepEqual(
    out.map((r) => r.id),
    ['c-1004', 'c-1002'],
  );
  assert.equal(out[1].revealed, true);
  assert.deepEqual(
    rows.map((r) => r.id),
    ['c-1003', 'c-1002', 'c-1001'],
    'the input is not changed',
  );
});

test('an initial transition starts from no rows', () => {
  const t = { from: null, to: 1, deletes: [], inserts: [{ index: 0, id: 'a', row: row('a') }], updates: [], count: 1 };
  assert.deepEqual(applyTransition([row('x')], t), [row('a')]);
});

test('a transition that does not fit the rows is refused', () => {
  const t = { from: 1, to: 2, deletes: [{ index: 0, id: 'b' }], inserts: [], updates: [], count: 0 };
  assert.throws(() => applyTransition([row('a')], t), /does not match/);
  const wrongCount = { from: 1, to: 2, deletes: [], inserts: [], updates: [], count: 2 };
  assert.throws(() => applyTransition([row('a')], wrongCount), /server said 2/);
});

test('the event-stream parser splits events, joins data lines and skips comments', () => {
  const events = [];
  const p = new EventStreamParser((e) => events.push(e));
  p.push(': keep-alive\n\nid: e.1\nevent: transition\ndata: {"a"');
  p.push(':1}\n\r\nevent: resync\r\ndata: {"currentVersion": 3}\r\n\r\ndata: x\ndata: y\n\n');
  assert.deepEqual(events, [
    { event: 'transition', data: '{"a":1}', id: 'e.1' },
    { event: 'resync', data: '{"currentVersion": 3}', id: null },
    { event: 'message', data: 'x\ny', id: null },
  ]);
});

test('backoff doubles up to 15 s with jitter below the base', () => {
  assert.equal(backoffDelay(0, () => 1), 250);
  assert.equal(backoffDelay(2, () => 1), 1000);
  assert.equal(backoffDelay(20, () => 1), 15000);
  assert.equal(backoffDelay(20, () => 0), 11250);
});

test('rowInfo and markSeen send what the server reads', async () => {
  const sent = [];
  const fetch = async (url, init) => {
    sent.push({ url, method: init.method, body: init.body, key: init.headers['Idempotency-Key'] });
    return new Response('{"version":2}', { status: 200 });
  };
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch });
  await client.rowInfo('c:1', { filter: 'missed', limit: 50, tz: 60 });
  await client.markSeen(1764464400, 'k-1');
  assert.deepEqual(sent, [
    { url: 'http://x/v1/lists/alice/rows/c%3A1?filter=missed&tz=60', method: 'GET', body: undefined, key: undefined },
    { url: 'http://x/v1/lists/alice/seen', method: 'POST', body: '{"through":1764464400}', key: 'k-1' },
  ]);
});
