// Tests of outbox-store.js with stand-ins for localStorage, sessionStorage and Web Locks: a reload
// finds its tab's queue, a duplicated tab does not take the other tab's queue, the queue of a closed
// tab goes to the next tab (oldest first, once), and a full storage does not break the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutboxStore } from '../../Web/outbox-store.js';
import { FakeLocks, FakeStorage } from './support/fake-storage.mjs';

const action = (key, createdAt) => ({ kind: 'editing', editing: true, key, createdAt, state: 'queued' });

test('a reload of the same tab finds its queue and its last server view', () => {
  const storage = new FakeStorage();
  const session = new FakeStorage();
  const a = new OutboxStore({ list: 'alice', storage, session });
  a.saveOutbox([action('k1', 1)]);
  a.saveView({ version: 3, epoch: 'e', rows: [] });
  const b = new OutboxStore({ list: 'alice', storage, session });
  assert.equal(b.tab, a.tab);
  assert.deepEqual(b.loadOutbox().map((x) => x.key), ['k1']);
  assert.equal(b.loadView().version, 3);
  b.saveOutbox([]);
  assert.equal(storage.length, 1, 'an empty queue leaves no entry');
  assert.equal(new OutboxStore({ list: 'bob', storage, session }).loadView(), null, 'per list');
});

test("a duplicated tab (same tab id, lock held) takes a new id and not the other tab's queue", async () => {
  const storage = new FakeStorage();
  const locks = new FakeLocks();
  const session = new FakeStorage();
  const first = new OutboxStore({ list: 'alice', storage, session, locks });
  assert.equal(await first.claim(), true);
  first.saveOutbox([action('k1', 1)]);
  const copy = new FakeStorage();
  copy.setItem('recents:tab', first.tab);
  const second = new OutboxStore({ list: 'alice', storage, session: copy, locks });
  assert.equal(await second.claim(), false);
  assert.notEqual(second.tab, first.tab);
  assert.deepEqual(second.loadOutbox(), []);
  assert.deepEqual(await second.adoptOrphans(), [], 'the first tab is open: its queue stays');
});

test('the queue of a closed tab goes to the next tab, oldest first, and only once', async () => {
  const storage = new FakeStorage();
  const locks = new FakeLocks();
  const closedA = new OutboxStore({ list: 'alice', storage, session: new FakeStorage(), locks });
  const closedB = new OutboxStore({ list: 'alice', storage, session: new FakeStorage(), locks });
  closedA.saveOutbox([action('a1', 10), action('a2', 30)]);
  closedB.saveOutbox([action('b1', 20)]);
  new OutboxStore({ list: 'bob', storage, session: new FakeStorage(), locks }).saveOutbox([action('x', 1)]);
  const next = new OutboxStore({ list: 'alice', storage, session: new FakeStorage(), locks });
  await next.claim();
  next.saveOutbox([action('n1', 40)]);
  const moved = await next.adoptOrphans();
  assert.deepEqual(moved.map((a) => a.key), ['a1', 'b1', 'a2']);
  assert.deepEqual(next.loadOutbox().map((a) => a.key), ['n1', 'a1', 'b1', 'a2']);
  const another = new OutboxStore({ list: 'alice', storage, session: new FakeStorage(), locks });
  assert.deepEqual(await another.adoptOrphans(), [], 'adopted once');
  assert.equal(new OutboxStore({ list: 'bob', storage, session: new FakeStorage(), locks }).storage.length, 2);
});

test('a full storage does not throw: the page goes on, unsaved', () => {
  const storage = new FakeStorage();
  storage.full = true;
  const s = new OutboxStore({ list: 'alice', storage, session: null });
  s.saveOutbox([action('k', 1)]);
  s.saveView({ version: 1 });
  s.saveRules({ gesture: {} });
  assert.deepEqual(s.loadOutbox(), []);
  storage.full = false;
  storage.setItem('recents:view:alice', '{not json');
  assert.equal(s.loadView(), null, 'unreadable is absent');
});
