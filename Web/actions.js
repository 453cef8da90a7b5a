// actions.js: the page's own actions as data: what each does to a list's state (the same rule the
// server applies, replayed on the page's copy so the screen changes at once), and the request that
// carries it. Pure; replica.js keeps them in order and decides when they retire.

/** The day of a Unix time in a zone `tz` minutes east of UTC (the rows' grouping day). */
const localDay = (timestamp, tz) => Math.floor((timestamp + tz * 60) / 86400);

/**
 * Whether row `b` (just below `a`) would be one row with `a`: the server's grouping (RecentsCore's
 * `RowBuilder.joins`), proven equal to it on Tests/Fixtures/grouping.json.
 */
export function joins(a, b, tz) {
  return (
    a.peer.id === b.peer.id &&
    localDay(a.timestamp, tz) === localDay(b.timestamp, tz) &&
    a.missed === b.missed &&
    a.video === b.video
  );
}

/** The status a row with these flags shows: missed wins, then mixed, then the one direction. */
export function status(missed, incoming, outgoing) {
  if (missed) return 'missed';
  if (incoming && outgoing) return 'mixed';
  return incoming ? 'incoming' : 'outgoing';
}

/** The one row `a` and the row below it `b` make (`RowBuilder.joined`): `a`'s newest call, both rows' calls. */
export function merge(a, b) {
  const incoming = a.incoming || b.incoming;
  const outgoing = a.outgoing || b.outgoing;
  return {
    ...a,
    count: a.count + b.count,
    callIds: [...a.callIds, ...b.callIds],
    incoming,
    outgoing,
    duration: null,
    status: status(a.missed, incoming, outgoing),
  };
}

/**
 * The window `rows` (with `hasMore` when rows follow it) without the calls `ids`, as `[{row, known}]`:
 * rows that keep every call stay, rows left next to each other join as the server groups them, and
 * what the rows cannot tell exactly is not `known`: a row that keeps only some of its calls (no row
 * says its newest remaining call's time, duration or directions; it still keeps its neighbours apart)
 * and, with rows beyond the window once its last row is gone, the row above it (it may join them).
 * The Swift client's `RowRemoval` is the same rule; both are tested on Tests/Fixtures/grouping.json.
 */
export function regroup(rows, ids, tz, hasMore = false) {
  const gone = ids instanceof Set ? ids : new Set(ids);
  const out = [];
  for (const row of rows) {
    const left = row.callIds.filter((id) => !gone.has(id));
    if (left.length === 0) continue;
    const known = left.length === row.callIds.length;
    const piece = known ? row : { ...row, id: left[0], callIds: left, count: left.length, duration: null };
    const above = out[out.length - 1];
    if (above && joins(above.row, piece, tz)) out[out.length - 1] = { row: merge(above.row, piece), known: above.known && known };
    else out.push({ row: piece, known });
  }
  const last = rows[rows.length - 1];
  if (hasMore && last && out.length && last.callIds.every((id) => gone.has(id))) out[out.length - 1].known = false;
  return out;
}

/**
 * The rows a screen shows once the calls `ids` are gone (`regroup`'s known rows): only rows the server
 * will send. Rows that lose nothing are the same objects; with nothing removed, `rows` itself.
 */
export function removeCalls(rows, ids, tz, hasMore = false) {
  const gone = new Set(ids);
  if (!rows.some((row) => row.callIds.some((id) => gone.has(id)))) return rows;
  return regroup(rows, gone, tz, hasMore).flatMap((entry) => (entry.known ? [entry.row] : []));
}

/** Sets each row's `revealed` and `editing` from the list's state, keeping rows that already agree. */
export function stamp(rows, editing, revealedRowId) {
  let changed = false;
  const out = rows.map((row) => {
    const revealed = row.id === revealedRowId;
    if (row.revealed === revealed && row.editing === editing) return row;
    changed = true;
    return { ...row, revealed, editing };
  });
  return changed ? out : rows;
}

function hasCall(state, id) {
  return state.rows.some((row) => row.callIds.includes(id));
}

function revealing(state, rowId, revealed) {
  // As the server: an unknown call is refused (nothing changes); opening wins; closing only closes that row.
  if (!hasCall(state, rowId)) return state;
  if (revealed) return { ...state, revealedRowId: rowId };
  return state.revealedRowId === rowId ? { ...state, revealedRowId: null } : state;
}

/**
 * What an action does to a state `{rows, editing, revealedRowId, hasMore, view}`, as the server would
 * do it now. An action that no longer applies (its row is gone) changes nothing, as its 404 will.
 */
export function applyAction(state, action) {
  switch (action.kind) {
    case 'editing':
      return { ...state, editing: action.editing, revealedRowId: action.editing ? state.revealedRowId : null };
    case 'reveal':
      return revealing(state, action.rowId, action.revealed);
    case 'gesture':
      return revealing(state, action.rowId, action.outcome === 'open');
    case 'delete': {
      // Own deletes all apply to the rows as the server sent them (`base`), so a row one of them keeps
      // out of sight still keeps its neighbours apart for the next, as the server's rows will.
      const base = state.base ?? { rows: state.rows, hasMore: state.hasMore };
      const gone = state.gone ?? [];
      const tz = state.view.tz;
      // The server deletes the row as it is when the request lands (a call that joined it since goes
      // too); in another view the page only knows the calls the row had.
      const sameView = state.view.filter === action.filter && state.view.tz === action.tz;
      let ids = action.callIds;
      if (sameView) {
        const entry = regroup(base.rows, gone, tz, base.hasMore).find((e) => e.row.id === action.rowId);
        if (!entry) return state;
        ids = entry.row.callIds;
      }
      const all = [...gone, ...ids];
      const rows = removeCalls(base.rows, all, tz, base.hasMore);
      const open = ids.includes(state.revealedRowId) ? null : state.revealedRowId;
      return { ...state, base, gone: all, rows, revealedRowId: open };
    }
    case 'clear': {
      const cleared = { ...state, rows: [], revealedRowId: null, hasMore: false, base: { rows: [], hasMore: false }, gone: [] };
      return state.unseenMissed === null || state.unseenMissed === undefined ? cleared : { ...cleared, unseenMissed: 0 };
    }
    case 'seen':
      return { ...state, unseenMissed: unseenAfterMark(state, action.through) };
    default:
      return state;
  }
}

/**
 * The missed-calls badge once the mark is at `through`, as far as the page can tell: the server counts
 * the missed calls after the mark; the page knows only its rows, so it counts one for each missed row
 * newer than the mark (the page marks through its newest missed call: 0), and never more than before.
 */
export function unseenAfterMark(state, through) {
  if (state.unseenMissed === null || state.unseenMissed === undefined) return state.unseenMissed;
  const newer = state.rows.filter((row) => row.missed && row.timestamp > through).length;
  return Math.min(state.unseenMissed, newer);
}

/** The newest missed call's time among `rows` (the `through` of a seen mark), or null when none is missed. */
export function newestMissed(rows) {
  let newest = null;
  for (const row of rows) if (row.missed && (newest === null || row.timestamp > newest)) newest = row.timestamp;
  return newest;
}

/**
 * Whether an action would change nothing the page shows (opening an open row, a swipe that leaves
 * a closed row closed, Edit when editing, a seen mark with no unseen missed call): the page does not
 * send it. Deletes always go.
 */
export function changesNothing(state, action) {
  if (action.kind === 'seen') return !(state.unseenMissed > 0);
  if (action.kind !== 'editing' && action.kind !== 'reveal' && action.kind !== 'gesture') return false;
  const after = applyAction(state, action);
  return after.editing === state.editing && after.revealedRowId === state.revealedRowId;
}

/** The request of an action: `{method, path, query, body}` below `/v1/lists/{list}`. */
export function actionRequest(action) {
  const row = `/rows/${encodeURIComponent(action.rowId ?? '')}`;
  switch (action.kind) {
    case 'editing':
      return { method: 'PUT', path: '/editing', body: { editing: action.editing } };
    case 'reveal':
      return { method: 'PUT', path: `${row}/reveal`, body: { revealed: action.revealed } };
    case 'gesture':
      return { method: 'POST', path: `${row}/gesture`, body: action.release };
    case 'delete':
      return {
        method: 'POST',
        path: `${row}/options/delete`,
        query: { filter: action.filter, tz: action.tz },
        body: { scope: action.scope },
      };
    case 'clear':
      return { method: 'POST', path: '/clear', body: { scope: action.scope } };
    case 'seen':
      return { method: 'POST', path: '/seen', body: { through: action.through } };
    default:
      throw new Error(`unknown action ${action.kind}`);
  }
}

/**
 * What a notice about an action that did not happen names: `{key, name}`, where `key` picks the
 * sentence of locale.js's `refused` table (`delete` → "Couldn't delete Bob Lee: …") and `name` the row.
 */
export function describeAction(action) {
  switch (action.kind) {
    case 'editing':
      return { key: action.editing ? 'startEditing' : 'finishEditing' };
    case 'reveal':
    case 'gesture':
      return { key: action.outcome === 'open' || action.revealed ? 'open' : 'close', name: action.name ?? null };
    case 'delete':
      return { key: 'delete', name: action.name ?? null };
    case 'clear':
      return { key: 'clear' };
    case 'seen':
      return { key: 'seen' };
    default:
      return { key: 'change' };
  }
}
