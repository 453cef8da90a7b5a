// actions.js: the page's own actions as data: what each does to a list's state (the same rule the
// server applies, replayed on the page's copy so the screen changes at once), and the request that
// carries it. Pure; replica.js keeps them in order and decides when they retire.

/** The day of a Unix time in a zone `tz` minutes east of UTC (the rows' grouping day). */
const localDay = (timestamp, tz) => Math.floor((timestamp + tz * 60) / 86400);

/** Whether row `b` (just below `a`) would be one row with `a`: the server's grouping of adjacent calls. */
function joins(a, b, tz) {
  return (
    a.peer.id === b.peer.id &&
    localDay(a.timestamp, tz) === localDay(b.timestamp, tz) &&
    a.missed === b.missed &&
    a.video === b.video
  );
}

function status(missed, incoming, outgoing) {
  if (missed) return 'missed';
  if (incoming && outgoing) return 'mixed';
  return incoming ? 'incoming' : 'outgoing';
}

function merge(a, b) {
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
 * The rows without the calls `ids`: a row that loses every call goes, one that loses some keeps the
 * rest (named by its newest remaining call; its time stays the row's until the server says), and rows
 * that end up adjacent join as the server would group them.
 */
export function removeCalls(rows, ids, tz) {
  const gone = new Set(ids);
  const out = [];
  let changed = false;
  for (const row of rows) {
    const remaining = row.callIds.filter((id) => !gone.has(id));
    if (remaining.length === row.callIds.length) {
      out.push(row);
      continue;
    }
    changed = true;
    if (remaining.length === 0) continue;
    out.push({ ...row, id: remaining[0], callIds: remaining, count: remaining.length, duration: null });
  }
  if (!changed) return rows;
  const joined = [];
  for (const row of out) {
    const above = joined[joined.length - 1];
    if (above && joins(above, row, tz)) joined[joined.length - 1] = merge(above, row);
    else joined.push(row);
  }
  return joined;
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
      // The server deletes the row as it is when the request lands (a call that joined it since goes
      // too); in another view the page only knows the calls the row had.
      const sameView = state.view.filter === action.filter && state.view.tz === action.tz;
      const row = state.rows.find((r) => r.id === action.rowId);
      if (sameView && !row) return state;
      const ids = sameView ? row.callIds : action.callIds;
      const rows = removeCalls(state.rows, ids, state.view.tz);
      const open = ids.includes(state.revealedRowId) ? null : state.revealedRowId;
      return { ...state, rows, revealedRowId: open };
    }
    case 'clear':
      return { ...state, rows: [], revealedRowId: null, hasMore: false };
    default:
      return state;
  }
}

/**
 * Whether an action would change nothing the page shows (opening an open row, a swipe that leaves
 * a closed row closed, Edit when editing): the page does not send it. Deletes always go.
 */
export function changesNothing(state, action) {
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
    default:
      return { key: 'change' };
  }
}
