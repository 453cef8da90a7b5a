// The call info view's words and lines (call-info.js), the missed-calls badge and its title
// (missed-badge.js), and the page's seen mark as an own action: optimistic, queued while offline with
// its Idempotency-Key, sent once when the link is back, and seen by another tab of the list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationText, infoContent, kindWord } from '../../Web/call-info.js';
import { callWords } from '../../Web/call-words.js';
import { badgedTitle, markToSend, missedSegmentText } from '../../Web/missed-badge.js';
import { actionRequest, applyAction, changesNothing } from '../../Web/actions.js';
import { Locale } from '../../Web/format.js';
import { ListSync } from '../../Web/sync.js';
import { OutboxStore } from '../../Web/outbox-store.js';
import { StreamShare } from '../../Web/stream-share.js';
import { ModelServer, kindOf } from './support/model-server.mjs';
import { FakeLocks, FakeStorage } from './support/fake-storage.mjs';
import { FakeChannels, ModelNetwork, until } from './support/fake-tabs.mjs';

const en = new Locale('en');
const all = { filter: 'all', limit: 50, tz: 0 };
let clock = 1764460800;
const call = (id, { endReason = 'missed', direction = 'incoming', video = false, duration = 0, peer = 'bob' } = {}) => {
  clock += 600;
  return { id, peer: { id: peer, name: 'Bob Lee' }, direction, endReason, video, duration, timestamp: clock };
};

test('kind words: every direction × end reason × video, by Telegram\'s rule, in English', () => {
  const expected = {
    'incoming hangup': 'Incoming',
    'outgoing hangup': 'Outgoing',
    'incoming missed': 'Missed',
    'outgoing missed': 'Cancelled',
    'incoming busy': 'Missed',
    'outgoing busy': 'Cancelled',
    'incoming disconnect': 'Cancelled',
    'outgoing disconnect': 'Cancelled',
  };
  for (const [key, word] of Object.entries(expected)) {
    const [direction, endReason] = key.split(' ');
    for (const video of [false, true]) {
      const c = { direction, endReason, video, kind: kindOf({ direction, endReason }) };
      assert.equal(kindWord(c, en), video ? `${word} Video` : word, `${key} video=${video}`);
    }
  }
});

test('every language has every call word of English, and its own kind words', () => {
  const shape = (o) => Object.entries(o).map(([k, v]) => (typeof v === 'string' ? k : `${k}{${shape(v)}}`)).join(',');
  for (const [language, words] of Object.entries(callWords)) {
    assert.equal(shape(words), shape(callWords.en), language);
    if (language !== 'en') assert.notEqual(words.kinds.incoming, callWords.en.kinds.incoming, language);
  }
  const de = new Locale('de');
  assert.equal(kindWord({ kind: 'missed', video: false }, de), 'Verpasst');
  assert.equal(kindWord({ kind: 'incoming', video: true }, de), 'Eingehender Videoanruf');
});

test('durations: none for 0 or null, seconds under a minute, whole minutes after', () => {
  assert.equal(durationText(0, en), '');
  assert.equal(durationText(null, en), '');
  assert.equal(durationText(45, en), '45 sec');
  assert.equal(durationText(312, en), '5 min');
});

test('info lines: a row of the model server, newest first, each with its time, kind and duration', () => {
  const model = new ModelServer();
  const calls = [call('c1', { duration: 65, direction: 'outgoing', endReason: 'hangup' }), call('c2'), call('c3', { video: true })];
  // One peer, one day: c1 (outgoing), c2 (missed) and c3 (missed video) are three rows; c4 (missed)
  // stands alone above c3, and c5 joins it, which gives the row c5's id (c4's is a 404 now).
  model.postCalls('alice', calls);
  model.postCalls('alice', [call('c4')]);
  const { status, body } = model.rowInfo('alice', 'c4', all);
  assert.equal(status, 200);
  assert.deepEqual(body.row.callIds, ['c4']);
  model.postCalls('alice', [call('c5')]);
  const joined = model.rowInfo('alice', 'c5', all).body;
  assert.deepEqual(joined.row.callIds, ['c5', 'c4']);
  assert.equal(model.rowInfo('alice', 'c4', all).status, 404);
  const { date, lines } = infoContent(joined, 0, en);
  assert.equal(date, 'November 30, 2025');
  assert.deepEqual(
    lines.map((l) => [l.id, l.kind, l.duration, l.missed]),
    [['c5', 'Missed', '', true], ['c4', 'Missed', '', true]],
  );
  assert.ok(lines[0].time > lines[1].time);
  const outgoing = infoContent(model.rowInfo('alice', 'c1', all).body, 60, en).lines;
  assert.deepEqual(outgoing.map((l) => [l.kind, l.duration]), [['Outgoing', '1 min']]);
});

test('badge: "Missed 3" and "(3) " while the count is above 0, the plain word and title at 0', () => {
  assert.equal(missedSegmentText(3, en), 'Missed 3');
  assert.equal(missedSegmentText(0, en), 'Missed');
  assert.equal(missedSegmentText(null, en), 'Missed');
  assert.equal(missedSegmentText(1200, new Locale('de')), 'Verpasst 1.200');
  assert.equal(badgedTitle('Recents', 3), '(3) Recents');
  assert.equal(badgedTitle('Recents', 0), 'Recents');
});

test('the mark to send: the newest missed row, only while the badge counts and past the last mark sent', () => {
  const rows = [
    { id: 'a', missed: false, timestamp: 300 },
    { id: 'b', missed: true, timestamp: 200 },
    { id: 'c', missed: true, timestamp: 100 },
  ];
  assert.equal(markToSend({ rows, unseenMissed: 2 }, null), 200);
  assert.equal(markToSend({ rows, unseenMissed: 0 }, null), null);
  assert.equal(markToSend({ rows, unseenMissed: null }, null), null);
  assert.equal(markToSend({ rows, unseenMissed: 2 }, 200), null);
  assert.equal(markToSend({ rows: rows.slice(0, 1), unseenMissed: 2 }, null), null);
  const state = { rows, unseenMissed: 2, editing: false, revealedRowId: null };
  assert.equal(applyAction(state, { kind: 'seen', through: 200 }).unseenMissed, 0);
  assert.equal(applyAction(state, { kind: 'seen', through: 150 }).unseenMissed, 1);
  assert.equal(changesNothing({ ...state, unseenMissed: 0 }, { kind: 'seen', through: 200 }), true);
  assert.deepEqual(actionRequest({ kind: 'seen', through: 200 }), { method: 'POST', path: '/seen', body: { through: 200 } });
});

/** A tab of `list` over the model network, started as app.js starts it; `offline()` fails its writes. */
function tab(b, view = all) {
  const store = new OutboxStore({ list: 'alice', storage: b.storage, session: new FakeStorage(), locks: b.locks });
  const share = new StreamShare({ list: 'alice', locks: b.locks, openChannel: (name) => b.channels.channel(name) });
  const client = b.net.client('alice', b.tabs.length + 1);
  const send = client.send.bind(client);
  client.keys = [];
  client.send = async (request, key) => {
    client.keys.push(key);
    if (b.down) throw new TypeError('Failed to fetch');
    return send(request, key);
  };
  const sync = new ListSync({ client, store, view, share, onChange: () => {} });
  const t = { sync, client, store };
  b.tabs.push(t);
  sync.start();
  return t;
}

test('a seen mark is optimistic, queued offline with its key, sent once when back, and clears every tab', async () => {
  const model = new ModelServer();
  model.postCalls('alice', [call('m1', { peer: 'p1' }), call('m2', { peer: 'p2' }), call('m3', { peer: 'p3' })]);
  const b = { net: new ModelNetwork(model), locks: new FakeLocks(), channels: new FakeChannels(), storage: new FakeStorage(), tabs: [], down: false };
  const first = tab(b);
  await until(() => first.sync.screen.unseenMissed === 3, 2000, 'the first tab\'s badge');
  const second = tab(b, { ...all, filter: 'missed' });
  await until(() => second.sync.screen.unseenMissed === 3 && !second.sync.busy, 2000, 'the second tab\'s badge');

  b.down = true;
  const through = markToSend(first.sync.screen, null);
  assert.equal(through, clock);
  first.sync.act({ kind: 'seen', through });
  assert.equal(first.sync.screen.unseenMissed, 0, 'optimistic: the badge clears at once');
  await until(() => first.client.keys.length >= 1, 2000, 'a first attempt');
  const saved = first.store.loadOutbox();
  assert.equal(saved.length, 1, 'kept across a reload while offline');
  assert.equal(saved[0].kind, 'seen');
  assert.equal(first.sync.screen.unseenMissed, 0, 'still cleared while it waits');
  assert.equal(model.rows('alice', all).unseenMissed, 3);

  b.down = false;
  first.sync.kick();
  await until(() => second.sync.screen.unseenMissed === 0, 2000, 'the other tab sees the badge cleared');
  await until(() => first.sync.replica.pending.length === 0, 2000, 'the mark retired');
  assert.ok(first.client.keys.every((k) => k === saved[0].key), 'every attempt with the one key');
  assert.equal(model.rows('alice', all).unseenMissed, 0);
  assert.equal(model.markAt(model.list('alice'), model.list('alice').version), through);
  for (const t of b.tabs) t.sync.pause();
});
