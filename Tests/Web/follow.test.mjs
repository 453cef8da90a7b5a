// Tests of RecentsClient.follow with a scripted fetch: the event stream when the server answers
// 200 text/event-stream, long-poll when it does not, a resync after 410 or `event: resync`, and the
// bearer token on every request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentsClient } from '../../Web/recents-client.js';

const empty = (from, to) => ({ from, to, epoch: 'e1', deletes: [], inserts: [], updates: [], count: 0 });

function json(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stream(text) {
  return new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/** A fetch that answers from `script(url, init)` and records each request; stops the follower after `limit`. */
function scripted(script) {
  const seen = [];
  const fetch = async (url, init = {}) => {
    seen.push({ url: new URL(url), init });
    return script(new URL(url), seen.length);
  };
  return { fetch, seen };
}

function follow(client, options, until) {
  return new Promise((resolve, reject) => {
    const got = [];
    const f = client.follow({
      ...options,
      onTransition: (t) => {
        got.push(t);
        if (until(got)) {
          f.stop();
          resolve(got);
        }
      },
    });
    f.done.then(() => reject(new Error('the follower ended')));
  });
}

test('the stream is used when the server answers 200 text/event-stream', async () => {
  const { fetch, seen } = scripted((url) => {
    assert.equal(url.pathname, '/v1/lists/alice/events');
    return stream(
      `id: e1.3\nevent: transition\ndata: ${JSON.stringify(empty(2, 3))}\n\n: keep-alive\n\n` +
        `event: transition\ndata: ${JSON.stringify(empty(3, 4))}\n\n`,
    );
  });
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', token: 'secret', fetch });
  const got = await follow(client, { since: 2, epoch: 'e1' }, (g) => g.length === 2);
  assert.deepEqual(
    got.map((t) => t.to),
    [3, 4],
  );
  assert.equal(seen[0].url.searchParams.get('since'), '2');
  assert.equal(seen[0].init.headers.Accept, 'text/event-stream');
  assert.equal(seen[0].init.headers.Authorization, 'Bearer secret');
});

test('without a stream (404) the client long-polls, and a 410 reloads from an initial transition', async () => {
  const { fetch, seen } = scripted((url, n) => {
    if (url.pathname.endsWith('/events')) return json(404, { type: 'not-found' });
    if (n === 2) return json(410, { type: 'resync-required', currentVersion: 9 });
    if (!url.searchParams.has('since')) return json(200, { ...empty(null, 9) });
    return json(200, empty(Number(url.searchParams.get('since')), Number(url.searchParams.get('since')) + 1));
  });
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch });
  const got = await follow(client, { since: 5, epoch: 'e1' }, (g) => g.length === 2);
  assert.deepEqual(
    got.map((t) => [t.from, t.to]),
    [
      [null, 9],
      [9, 10],
    ],
  );
  const polls = seen.filter((s) => s.url.pathname.endsWith('/transitions'));
  assert.equal(polls[0].url.searchParams.get('wait'), '30');
  assert.equal(polls[1].url.searchParams.has('since'), false, 'the reload asks with no since');
  assert.equal(polls[2].url.searchParams.get('since'), '9');
});

test('an `event: resync` on the stream starts again with no since', async () => {
  const { fetch, seen } = scripted((url, n) => {
    if (n === 1) return stream('event: resync\ndata: {"currentVersion": 7}\n\n');
    return stream(`event: transition\ndata: ${JSON.stringify(empty(null, 7))}\n\n`);
  });
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch });
  const got = await follow(client, { since: 3, epoch: 'e1' }, (g) => g.length === 1);
  assert.equal(got[0].from, null);
  assert.equal(seen[1].url.searchParams.has('since'), false);
});

test('network errors are retried and reported as offline, then online', async () => {
  const statuses = [];
  const { fetch } = scripted((url, n) => {
    if (n === 1) throw new TypeError('connection refused');
    return stream(`event: transition\ndata: ${JSON.stringify(empty(1, 2))}\n\n`);
  });
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch });
  await follow(client, { since: 1, epoch: 'e1', onStatus: (s) => statuses.push(s) }, (g) => g.length === 1);
  assert.deepEqual(statuses, ['offline', 'online']);
});

test('includeEmpty asks the stream, and the long-poll after a fallback, for every version', async () => {
  const { fetch, seen } = scripted((url) => {
    if (url.pathname.endsWith('/events')) return json(404, { type: 'not-found' });
    const since = Number(url.searchParams.get('since'));
    return json(200, empty(since, since + 1));
  });
  const client = new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch });
  await follow(client, { since: 5, epoch: 'e1', includeEmpty: true }, (g) => g.length === 2);
  assert.equal(seen[0].url.searchParams.get('includeEmpty'), 'true');
  const polls = seen.filter((s) => s.url.pathname.endsWith('/transitions'));
  assert.ok(polls.length >= 2 && polls.every((p) => p.url.searchParams.get('includeEmpty') === 'true'));
  const plain = scripted(() => stream(`event: transition\ndata: ${JSON.stringify(empty(1, 2))}\n\n`));
  await follow(new RecentsClient({ list: 'alice', baseURL: 'http://x', fetch: plain.fetch }), { since: 1, epoch: 'e1' }, (g) => g.length === 1);
  assert.equal(plain.seen[0].url.searchParams.has('includeEmpty'), false, 'left out unless asked for');
});
