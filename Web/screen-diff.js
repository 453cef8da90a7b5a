// screen-diff.js: what differs between two screens of rows, in a transition's shape (deletes at old
// indices, inserts and updates at new ones), so the list view animates only what a user can see change:
// a server transition that confirms what the page already shows diffs to nothing.

/** Whether two rows show the same thing (the same object, or equal members). */
export function sameRow(a, b) {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The changes from `before` to `after` (arrays of rows with unique ids): `{deletes, inserts, updates, count}`,
 * each sorted by index, as docs/API.md's transitions are (a delete also carries the row it removes).
 * Rows keep their order by newest call, so a kept row never moves; if one ever did, it is a delete and
 * an insert (still a correct diff). Inserts at the top of a non-empty screen get `directionHint: 'down'`,
 * by the server's rule.
 */
export function diffScreens(before, after) {
  const newIndex = new Map(after.map((row, i) => [row.id, i]));
  const kept = new Map(); // id → old index, for rows kept in place
  let last = -1;
  const deletes = [];
  before.forEach((row, i) => {
    const j = newIndex.get(row.id);
    if (j !== undefined && j > last) {
      kept.set(row.id, i);
      last = j;
    } else {
      deletes.push({ index: i, id: row.id, row });
    }
  });
  const inserts = [];
  const updates = [];
  after.forEach((row, j) => {
    const i = kept.get(row.id);
    if (i === undefined) inserts.push({ index: j, previousIndex: null, id: row.id, row, directionHint: null });
    else if (!sameRow(before[i], row)) updates.push({ index: j, previousIndex: i, id: row.id, row });
  });
  if (before.length > 0) {
    for (let k = 0; k < inserts.length && inserts[k].index === k; k += 1) inserts[k].directionHint = 'down';
  }
  return { deletes, inserts, updates, count: after.length };
}

