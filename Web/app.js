// app.js: the page. State flows one way: the server's transitions and the page's own actions go into
// ListSync (a Replica: the server's view plus the actions not yet in it); each change of the screen
// comes back as a diff, and ListView animates only that. Input never waits for the network: an
// action is on screen within a frame, and its request follows (queued while offline).

import { RecentsClient } from './recents-client.js';
import { ListView, animationPlan } from './list-view.js';
import { ListSync } from './sync.js';
import { OutboxStore } from './outbox-store.js';
import { StreamShare } from './stream-share.js';
import { attachSwipe } from './swipe.js';
import { decide, defaultRules } from './gesture.js';
import { displayName, readerLocale, viewerOffset } from './format.js';
import { openOffset } from './row-markup.js';
import { CallInfo } from './call-info.js';
import { MissedBadge } from './missed-badge.js';

const batchSize = 50;
const leadingScreensForBatching = 2;
const noticeMs = 4000;

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

/** The first view the server put into the page, or null (auth on, an old server, unreadable). */
function readInitial() {
  try {
    const node = $('recents-initial');
    return node ? JSON.parse(node.textContent) : null;
  } catch {
    return null;
  }
}

const list = new URLSearchParams(location.search).get('list') || 'demo';
const tz = viewerOffset();
// The server renders the first rows of the next load in this zone (minutes east of UTC).
document.cookie = `recents-tz=${tz}; SameSite=Lax; path=/; max-age=31536000`;

const initial = readInitial();
// The reader's language (locale.js already put the page and the server's rows into it before the first paint).
const locale = readerLocale(window);
const client = new RecentsClient({ list, token: readToken() });
const store = new OutboxStore({ list, storage: localStorage, session: sessionStorage, locks: navigator.locks ?? null });
// One event stream per list for all of this browser's tabs (where Web Locks and BroadcastChannel exist).
const share =
  navigator.locks && typeof BroadcastChannel === 'function'
    ? new StreamShare({ list, locks: navigator.locks, openChannel: (name) => new BroadcastChannel(name) })
    : null;
const buttonWidth = () => sync.rules.gesture.buttonWidth;
const view = new ListView($('rows'), {
  buttonWidth: initial?.rules?.gesture?.buttonWidth ?? 74,
  reducedMotion: () => reducedMotion.matches,
  locale,
});

/** Figures the browser test reads (first rows after navigation start, time to apply a change). */
const metrics = { firstRowsMs: null, adopted: null, applies: [] };

// MARK: - the screen

function onChange(change, s) {
  const started = performance.now();
  const screen = change.screen;
  let plan = 'none';
  if (change.boot) {
    if (screen.view) view.setTimeZone(screen.view.tz);
    metrics.adopted = view.adopt(screen.rows);
  } else {
    plan = change.cause ? animationPlan(change.cause) : 'none';
    view.apply(change.diff, screen.rows, plan);
    // Rows that did not change still show their times in the old zone: rewrite them all.
    if (screen.view) view.setTimeZone(screen.view.tz, screen.rows);
    announceDeletions(change.diff);
  }
  renderHeader(s);
  info.screenChanged(screen, s.replica.server?.version ?? null);
  $('empty').hidden = screen.rows.length > 0 || !screen.view;
  for (const n of change.notices) notice(locale.notice(n));
  const d = change.diff;
  const changes = d ? d.deletes.length + d.inserts.length + d.updates.length : screen.rows.length;
  if (changes === 0 && !change.boot) return;
  const ms = performance.now() - started;
  metrics.applies.push({ ms, changes, reason: change.cause?.reason ?? null, plan: view.lastPlan ?? plan });
  if (metrics.applies.length > 200) metrics.applies.shift();
  if (metrics.firstRowsMs === null && screen.rows.length) metrics.firstRowsMs = performance.now();
  // A window that does not fill the screen asks for the next batch without a scroll (once the view change is done).
  setTimeout(maybeFetchMore, 0);
}

function announceDeletions(diff) {
  const back = new Set(diff.inserts.flatMap((i) => i.row.callIds));
  const gone = diff.deletes.map((d) => d.row).filter((row) => row && !row.callIds.some((id) => back.has(id)));
  if (gone.length === 0) return;
  $('announcer').textContent = locale.deleted(gone);
}

let noticeTimer = null;
/** A short visible notice, read out too (by the live region that is always there; the bubble appears with it). */
function notice(text) {
  $('announcer').textContent = text;
  const n = $('notice');
  n.textContent = text;
  n.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    n.hidden = true;
  }, noticeMs);
}

function renderHeader(s = sync) {
  const screen = s.screen;
  $('edit').textContent = locale.word(screen.editing ? 'done' : 'edit');
  $('edit').setAttribute('aria-pressed', String(screen.editing));
  $('clear').hidden = !screen.editing;
  view.setEditing(screen.editing);
  for (const b of document.querySelectorAll('.segmented button')) {
    b.setAttribute('aria-checked', String(b.dataset.filter === s.wanted.filter));
  }
  $('list-name').textContent = list;
  badge.render(screen);
}

function onStatus({ online, waiting }) {
  const status = $('status');
  status.textContent = online ? '' : locale.offline(waiting);
  status.hidden = online;
}

const sync = new ListSync({
  client,
  store,
  view: { filter: 'all', limit: batchSize, tz },
  initial,
  share,
  onChange,
  onStatus,
  onRules: (rules) => {
    view.buttonWidth = rules.gesture.buttonWidth;
  },
});

// The (i) button's view of a row's calls, and the missed-calls badge with the page's seen mark.
const info = new CallInfo({
  dialog: $('call-info'),
  client,
  locale,
  view: () => sync.screen.view ?? sync.wanted,
  notice,
});
const badge = new MissedBadge({ sync, locale, doc: document, segment: $('filter-missed') });

// MARK: - input: each action is on screen at once; sync sends it

const screenRow = (id) => sync.screen.rows.find((r) => r.id === id) ?? null;

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
  const row = screenRow(id);
  if (!row) return;
  openSheet(locale.word('confirmDelete', { name: row.peer.name }), (scope) => {
    const shown = sync.screen.view;
    const name = displayName(row);
    sync.act({ kind: 'delete', rowId: id, callIds: row.callIds, scope, filter: shown.filter, tz: shown.tz, name });
  });
}

function reveal(id, revealed) {
  const row = screenRow(id);
  if (row) sync.act({ kind: 'reveal', rowId: id, revealed, name: displayName(row) });
}

$('edit').addEventListener('click', () => sync.act({ kind: 'editing', editing: !sync.screen.editing }));
$('clear').addEventListener('click', () =>
  openSheet(locale.word('confirmClear'), (scope) => sync.act({ kind: 'clear', scope })),
);
for (const b of document.querySelectorAll('.segmented button')) {
  b.addEventListener('click', () => {
    sync.setView({ filter: b.dataset.filter, limit: batchSize });
    renderHeader();
  });
}

/** Whether a click ends a drag of a row (swipe.js marks the row's content), not a tap. */
function endsDrag(e) {
  const content = e.target.closest('.row-content');
  return !!content && e.timeStamp - Number(content.dataset.dragEndedAt ?? -1e9) <= 300;
}

// As in UIKit and Telegram's list, a tap outside the open row (on another row, or the list's empty
// area) closes it and does nothing else: the tapped row does not open or act. Taken before the rows see it.
document.addEventListener(
  'click',
  (e) => {
    const open = sync.screen.revealedRowId;
    if (open === null || e.target.closest('.bar, dialog') || endsDrag(e)) return;
    if (e.target.closest('.row')?.dataset.id === open) return;
    e.stopPropagation();
    e.preventDefault();
    reveal(open, false);
  },
  { capture: true },
);

// A scroll of the list closes the open row too (Telegram closes it when a drag of the list begins).
// Only a scroll that follows the user's input counts: not one the page causes (rows arriving above).
let scrollInputAt = -Infinity;
for (const type of ['wheel', 'touchmove', 'pointerdown', 'keydown']) {
  window.addEventListener(type, (e) => (scrollInputAt = e.timeStamp), { capture: true, passive: true });
}
window.addEventListener(
  'scroll',
  (e) => {
    const open = sync.screen.revealedRowId;
    if (open !== null && view.dragging === null && e.timeStamp - scrollInputAt < 1000) reveal(open, false);
  },
  { passive: true },
);

const rowsNode = $('rows');
rowsNode.addEventListener('click', (e) => {
  const li = e.target.closest('.row');
  if (!li || li.classList.contains('leaving')) return;
  const id = li.dataset.id;
  if (e.target.closest('.row-info')) return screenRow(id) && info.open(screenRow(id), e.target.closest('.row-info'));
  if (e.target.closest('.row-delete')) return confirmDelete(id);
  if (e.target.closest('.row-minus')) return reveal(id, true);
  if (e.target.closest('.row-content') && !endsDrag(e) && screenRow(id)?.revealed) reveal(id, false);
});
rowsNode.addEventListener('keydown', (e) => {
  const content = e.target.closest('.row-content');
  if (!content || e.target !== content) return;
  const id = content.closest('.row').dataset.id;
  if (e.key === 'ArrowLeft' || e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    reveal(id, true);
    view.node(id)?.querySelector('.row-delete')?.focus();
  } else if (e.key === 'ArrowRight' || e.key === 'Escape') {
    e.preventDefault();
    reveal(id, false);
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const i = view.nodes.indexOf(view.node(id)) + (e.key === 'ArrowDown' ? 1 : -1);
    view.nodes[i]?.querySelector('.row-content').focus();
  }
});

attachSwipe(rowsNode, {
  enabled: (id) => !sync.screen.editing || screenRow(id)?.revealed,
  offsetOf: (id) => {
    const row = screenRow(id);
    return row?.revealed ? openOffset(row, buttonWidth()) : 0;
  },
  begin: (id) => {
    view.dragging = id;
  },
  move: (id, offset) => {
    const node = view.node(id);
    if (node) view.setOffset(node, offset);
  },
  release: (id, gesture) => {
    // Decided here by the server's rule; the server, sent the same release, decides the same.
    const row = screenRow(id);
    const release = { ...gesture, buttonWidth: buttonWidth() };
    const decision = decide(release, row?.options?.length ?? sync.rules.rowOptions.length, sync.rules.gesture);
    if (row) sync.act({ kind: 'gesture', rowId: id, release, outcome: decision.outcome, name: displayName(row) });
    view.dragging = null;
    const node = view.node(id);
    if (node) view.settle(node, gesture.offset);
    if (decision.outcome === 'selected') confirmDelete(id);
  },
});

// MARK: - batches, the link, the page's life

function maybeFetchMore() {
  const server = sync.replica?.server;
  // Not while a view change (a filter switch, an earlier batch) is still on its way.
  if (!server || !server.hasMore || sync.busy || sync.driving) return;
  // The server publishes its largest window (`GET /v1/rules`); one too old to say gets the contract's.
  const maxLimit = sync.rules.rows?.maxLimit ?? defaultRules.rows.maxLimit;
  if (server.view.filter !== sync.wanted.filter || server.view.limit >= maxLimit) return;
  const scroller = document.scrollingElement;
  const remaining = scroller.scrollHeight - (scroller.scrollTop + window.innerHeight);
  if (remaining > leadingScreensForBatching * window.innerHeight) return;
  sync.setView({ limit: Math.min(maxLimit, server.view.limit + batchSize) });
}

window.addEventListener('scroll', maybeFetchMore, { passive: true });
window.addEventListener('resize', maybeFetchMore, { passive: true });
window.addEventListener('online', () => sync.kick());
window.addEventListener('pagehide', () => sync.pause());
window.addEventListener('pageshow', (e) => {
  if (e.persisted) sync.resume();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') sync.saveNow();
});

/** What the browser test reads: the screen, the server version shown, and whether anything is in flight. */
const state = {
  get version() {
    return sync.replica?.server?.version ?? null;
  },
  get busy() {
    return sync.busy || sync.driving || sync.sending;
  },
  get pending() {
    return sync.replica?.pending.length ?? 0;
  },
  get rows() {
    return sync.screen.rows;
  },
  get shownView() {
    return sync.replica?.server?.view ?? null;
  },
  get follower() {
    return sync.follower;
  },
  /** Whether this tab holds the list's event stream for the browser's tabs (null: not shared). */
  get leading() {
    return share ? share.leading : null;
  },
};
window.recentsPage = { state, metrics, client, sync };

sync.start();
maybeFetchMore();

// The offline shell, once the page has loaded (it competes with nothing the first rows need).
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const urls = [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)];
        registration.active?.postMessage({ type: 'cache', urls });
      })
      .catch(() => {});
  });
}
