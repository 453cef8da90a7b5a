// app.js: the page. State flows one way: a server transition → the model (applyTransition) → the DOM
// (ListView). Gestures and buttons only send requests; what the list shows comes back as transitions.
// Transitions are applied one at a time (CallListControllerNode's enqueueTransition/dequeueTransition);
// a queue that grows is replaced by one transition the server composes from the shown version.

import { RecentsClient, RecentsError, applyTransition, sameView } from './recents-client.js';
import { ListView } from './list-view.js';
import { attachSwipe } from './swipe.js';
import { displayName, viewerOffset } from './format.js';

const buttonWidth = 74;
const batchSize = 50;
const leadingScreensForBatching = 2;
const maxLimit = 1000;

const $ = (id) => document.getElementById(id);
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

function readToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token');
  if (token) {
    sessionStorage.setItem('recents-token', token);
    // The token stays out of the address bar, history and anything copied from it.
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('recents-token');
}

const params = new URLSearchParams(location.search);
const list = params.get('list') || 'demo';
const client = new RecentsClient({ list, token: readToken() });
const view = new ListView($('rows'), $('row-template'), { buttonWidth, reducedMotion: () => reducedMotion.matches });
const tz = viewerOffset();
view.setTimeZone(tz);

/** What the page shows, and what it wants to show next. */
const state = {
  version: null,
  epoch: null,
  shownView: { filter: 'all', limit: batchSize, tz },
  wantedView: { filter: 'all', limit: batchSize, tz },
  rows: [],
  hasMore: false,
  editing: false,
  revealedRowId: null,
  queue: [],
  busy: false,
  generation: 0,
  follower: null,
};

/** Figures the browser test reads (page load to first rows, time to apply a transition). */
const metrics = { firstRowsMs: null, applies: [] };
window.recentsPage = { state, metrics, client };

// MARK: - the transition queue

function enqueue(t, generation) {
  if (generation !== state.generation) return;
  state.queue.push(t);
  drain();
}

async function drain() {
  if (state.busy) return;
  state.busy = true;
  try {
    while (state.queue.length || !sameView(state.wantedView, state.shownView) || state.version === null) {
      const pending = state.queue.splice(0).filter((t) => t.from === null || t.to > state.version);
      let t = null;
      const wanted = { ...state.wantedView };
      if (state.version === null) {
        t = await fetchTransition({ view: wanted });
      } else if (!sameView(wanted, state.shownView)) {
        restartFollower(null);
        t = await fetchTransition({ since: state.version, epoch: state.epoch, view: wanted, fromView: state.shownView });
      } else if (pending.length === 0) {
        continue;
      } else if (pending.length === 1 && (pending[0].from === state.version || pending[0].from === null)) {
        t = pending[0];
      } else {
        // A queue that grew: one transition from what is shown, composed by the server.
        const last = pending[pending.length - 1];
        t = last.from === null ? last : await fetchTransition({ since: state.version, epoch: state.epoch, view: wanted });
      }
      if (t) await show(t, wanted);
      if (!state.follower) restartFollower(state.version);
    }
  } finally {
    state.busy = false;
  }
  maybeFetchMore();
}

/** A transition from the server; on 410 the initial transition of the view instead. */
async function fetchTransition(request) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await client.transition(request);
    } catch (e) {
      if (e instanceof RecentsError && e.status === 410) return client.transition({ view: request.view });
      setOnline(false);
      await new Promise((r) => setTimeout(r, Math.min(15000, 250 * 2 ** attempt)));
    }
  }
}

async function show(t, shownView) {
  const started = performance.now();
  let rows;
  try {
    rows = applyTransition(state.rows, t);
  } catch {
    // The transition does not fit what is shown (it cannot happen with a correct server): reload.
    const initial = await client.transition({ view: shownView });
    return show(initial, shownView);
  }
  const deleted = t.from === null ? [] : t.deletes.map((d) => state.rows[d.index]);
  const filterChanged = state.shownView.filter !== shownView.filter;
  state.rows = rows;
  state.version = t.to;
  state.epoch = t.epoch;
  state.shownView = shownView;
  state.hasMore = t.hasMore;
  state.editing = t.editing;
  state.revealedRowId = t.revealedRowId;
  renderHeader();
  const finished = view.apply(t, rows);
  $('empty').hidden = rows.length > 0;
  const applyMs = performance.now() - started;
  metrics.applies.push({ ms: applyMs, changes: t.deletes.length + t.inserts.length + t.updates.length, reason: t.reason, plan: view.lastPlan });
  if (metrics.applies.length > 200) metrics.applies.shift();
  if (metrics.firstRowsMs === null && rows.length) metrics.firstRowsMs = performance.now();
  if (!filterChanged) announceDeletions(deleted, t);
  await finished;
}

function announceDeletions(deleted, t) {
  const kept = new Set(t.inserts.flatMap((i) => i.row.callIds));
  const gone = deleted.filter((row) => row && !row.callIds.some((id) => kept.has(id)));
  if (gone.length === 0) return;
  $('announcer').textContent =
    gone.length === 1 ? `Deleted ${displayName(gone[0])}` : `Deleted ${gone.length} rows`;
}

// MARK: - following the list

function restartFollower(since) {
  state.follower?.stop();
  state.follower = null;
  state.generation += 1;
  if (since === null) return;
  const generation = state.generation;
  state.follower = client.follow({
    view: { ...state.shownView },
    since,
    epoch: state.epoch,
    onTransition: (t) => enqueue(t, generation),
    onStatus: (status) => setOnline(status === 'online'),
  });
}

function setOnline(online) {
  $('status').hidden = online;
}

// MARK: - header, batches

function renderHeader() {
  $('edit').textContent = state.editing ? 'Done' : 'Edit';
  $('edit').setAttribute('aria-pressed', String(state.editing));
  $('clear').hidden = !state.editing;
  view.setEditing(state.editing);
  for (const b of document.querySelectorAll('.segmented button')) {
    b.setAttribute('aria-checked', String(b.dataset.filter === state.wantedView.filter));
  }
  $('list-name').textContent = list;
}

function maybeFetchMore() {
  // Not while a view change (a filter switch, an earlier batch) is still on its way.
  if (!state.hasMore || state.busy || !sameView(state.wantedView, state.shownView)) return;
  if (state.shownView.limit >= maxLimit) return;
  const scroller = document.scrollingElement;
  const remaining = scroller.scrollHeight - (scroller.scrollTop + window.innerHeight);
  if (remaining > leadingScreensForBatching * window.innerHeight) return;
  state.wantedView = { ...state.shownView, limit: Math.min(maxLimit, state.shownView.limit + batchSize) };
  drain();
}

// MARK: - input

function rowOf(id) {
  return state.rows.find((r) => r.id === id) ?? null;
}

async function write(promise) {
  try {
    return await promise;
  } catch (e) {
    $('announcer').textContent = e instanceof RecentsError ? `Failed: ${e.message}` : 'Offline: the change was not sent';
    return null;
  }
}

const sheet = $('sheet');
let sheetAction = null;

function openSheet(title, action) {
  $('sheet-title').textContent = title;
  sheetAction = action;
  sheet.returnValue = '';
  sheet.showModal();
  sheet.querySelector('.sheet-button').focus();
}

sheet.addEventListener('close', () => {
  const action = sheetAction;
  sheetAction = null;
  const scope = sheet.returnValue;
  if (action && (scope === 'me' || scope === 'everyone')) action(scope);
});
sheet.addEventListener('click', (e) => {
  if (e.target === sheet) sheet.close('cancel');
});

function confirmDelete(id) {
  const row = rowOf(id);
  if (!row) return;
  openSheet(`Delete the call with ${row.peer.name}?`, (scope) =>
    write(client.confirmOption(id, 'delete', scope, state.shownView)),
  );
}

$('edit').addEventListener('click', () => write(client.setEditing(!state.editing)));
$('clear').addEventListener('click', () =>
  openSheet('Delete all calls?', (scope) => write(client.clear(scope))),
);
for (const b of document.querySelectorAll('.segmented button')) {
  b.addEventListener('click', () => {
    state.wantedView = { ...state.wantedView, filter: b.dataset.filter, limit: batchSize };
    renderHeader();
    drain();
  });
}

const rowsNode = $('rows');
rowsNode.addEventListener('click', (e) => {
  const li = e.target.closest('.row');
  if (!li) return;
  const id = li.dataset.id;
  if (e.target.closest('.row-delete')) return confirmDelete(id);
  if (e.target.closest('.row-minus')) return write(client.reveal(id, true));
  const content = e.target.closest('.row-content');
  const endedAt = Number(content?.dataset.dragEndedAt ?? -1e9);
  if (content && e.timeStamp - endedAt > 300 && rowOf(id)?.revealed) write(client.reveal(id, false));
});
rowsNode.addEventListener('keydown', (e) => {
  const content = e.target.closest('.row-content');
  if (!content || e.target !== content) return;
  const id = content.closest('.row').dataset.id;
  if (e.key === 'ArrowLeft' || e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    write(client.reveal(id, true)).then((reply) => {
      const del = view.node(id)?.querySelector('.row-delete');
      if (reply && del) {
        del.closest('.row-actions').removeAttribute('inert');
        del.tabIndex = 0;
        del.focus();
      }
    });
  } else if (e.key === 'ArrowRight' || e.key === 'Escape') {
    e.preventDefault();
    write(client.reveal(id, false));
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const node = view.node(id);
    const i = view.nodes.indexOf(node) + (e.key === 'ArrowDown' ? 1 : -1);
    view.nodes[i]?.querySelector('.row-content').focus();
  }
});

attachSwipe(rowsNode, {
  enabled: (id) => !state.editing || rowOf(id)?.revealed,
  offsetOf: (id) => (rowOf(id)?.revealed ? -buttonWidth : 0),
  begin: (id) => {
    view.dragging = id;
  },
  move: (id, offset) => {
    const node = view.node(id);
    if (node) view.setOffset(node, offset, false);
  },
  release: async (id, gesture) => {
    const reply = await write(client.gesture(id, { ...gesture, buttonWidth }));
    view.dragging = null;
    const node = view.node(id);
    if (node) view.setOffset(node, reply ? reply.offset : gesture.initialOffset, true);
    if (reply?.outcome === 'selected' && reply.option?.key === 'delete') confirmDelete(id);
  },
});

window.addEventListener('scroll', maybeFetchMore, { passive: true });
window.addEventListener('resize', maybeFetchMore, { passive: true });
renderHeader();
drain();
