// The call info view (call-info.js's CallInfo) when its row's id stops answering: a 404 asks which row
// now groups the call; the view closes with the "deleted" notice only when the server says that row
// is gone too, never because the link dropped between the two requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallInfo } from '../../Web/call-info.js';
import { Locale } from '../../Web/format.js';
import { RecentsError } from '../../Web/recents-client.js';

/** An element with the little CallInfo touches: class, text, children, dataset, listeners. */
class FakeNode {
  constructor() {
    this.className = '';
    this.textContent = '';
    this.children = [];
    this.dataset = {};
    this.listeners = {};
  }
  addEventListener(type, listener) {
    this.listeners[type] = listener;
  }
  append(...nodes) {
    this.children.push(...nodes);
  }
  replaceChildren(...nodes) {
    this.children = nodes;
  }
  focus() {}
}

/** `#call-info`: open until `close()`, which fires its close listener as a dialog does. */
class FakeDialog extends FakeNode {
  constructor() {
    super();
    this.open = false;
    this.parts = new Map();
  }
  querySelector(selector) {
    if (!this.parts.has(selector)) this.parts.set(selector, new FakeNode());
    return this.parts.get(selector);
  }
  showModal() {
    this.open = true;
  }
  close() {
    this.open = false;
    this.listeners.close?.();
  }
}

globalThis.document ??= { createElement: () => new FakeNode(), querySelector: () => null };
globalThis.CSS ??= { escape: (text) => text };

const peer = { id: 'bob', name: 'Bob Lee' };
const callOf = (id, timestamp) => ({ id, peer, direction: 'incoming', kind: 'missed', video: false, duration: 0, timestamp });
const oldRow = { id: 'c-1', peer, callIds: ['c-1'], timestamp: 1764460800 };
// c-2 joined c-1's group beyond the window: the row is now called c-2.
const movedInfo = { version: 7, row: { id: 'c-2', peer, callIds: ['c-2', 'c-1'], timestamp: 1764461400 }, calls: [callOf('c-2', 1764461400), callOf('c-1', 1764460800)] };

/** A client whose `rows/c-1` is gone and whose `calls/c-1/row` answers as `rowOfCall` says. */
function clientWith(rowOfCall) {
  const asked = [];
  return {
    asked,
    async rowInfoSince(rowId) {
      asked.push(`rows/${rowId}`);
      if (rowId === 'c-1') throw new RecentsError(404, { type: 'not-found', status: 404 });
      return { info: movedInfo, etag: '"7"' };
    },
    async rowOfCall(callId) {
      asked.push(`calls/${callId}/row`);
      return rowOfCall();
    },
  };
}

function openView(client) {
  const dialog = new FakeDialog();
  const notices = [];
  const view = new CallInfo({ dialog, client, locale: new Locale('en'), view: () => ({ filter: 'all', tz: 0 }), notice: (text) => notices.push(text) });
  return { dialog, notices, view };
}

/** Until every request the view started has been answered (its fetch loop holds `fetching`). */
async function settled(view) {
  for (let i = 0; i < 1000 && view.fetching; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(view.fetching, false, 'the view still waits for an answer');
}

test('a cut link after the 404 keeps the view open, without the notice; the next version finds the row', async () => {
  let cut = true;
  const client = clientWith(() => {
    if (cut) throw new TypeError('fetch failed');
    return movedInfo;
  });
  const { dialog, notices, view } = openView(client);
  view.open(oldRow);
  await settled(view);
  assert.deepEqual(client.asked, ['rows/c-1', 'calls/c-1/row']);
  assert.equal(dialog.open, true, 'no answer is not "deleted"');
  assert.deepEqual(notices, []);

  cut = false;
  view.screenChanged({ view: { filter: 'all' }, rows: [] }, 8);
  await settled(view);
  assert.equal(dialog.open, true);
  assert.deepEqual(notices, []);
  assert.equal(dialog.dataset.rowId, 'c-2', 'the view follows the row to its new id');
  assert.deepEqual(
    dialog.querySelector('.call-info-calls').children.map((li) => li.dataset.id),
    ['c-2', 'c-1'],
  );
});

test('a server error after the 404 keeps the view open too', async () => {
  const client = clientWith(() => {
    throw new RecentsError(503, { type: 'storage-unavailable', status: 503 });
  });
  const { dialog, notices, view } = openView(client);
  view.open(oldRow);
  await settled(view);
  assert.equal(dialog.open, true);
  assert.deepEqual(notices, []);
});

test('a 404 for the call too closes the view with the "deleted" notice', async () => {
  const client = clientWith(() => {
    throw new RecentsError(404, { type: 'not-found', status: 404 });
  });
  const { dialog, notices, view } = openView(client);
  view.open(oldRow);
  await settled(view);
  assert.equal(dialog.open, false);
  assert.equal(notices.length, 1);
  assert.equal(view.isOpen, false);
});
