// The page's and the test server's grouping against the server's: every case of Tests/Fixtures/grouping.json
// (written by RecentsCore's GroupingFixtureTests from RowBuilder). The model server's rows are RowBuilder's
// after every step, and the page's screen after every own action is the fixture's `shown`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildRows } from './support/model-server.mjs';
import { screenOf } from '../../Web/replica.js';

const fixture = JSON.parse(readFileSync(new URL('../Fixtures/grouping.json', import.meta.url), 'utf8'));

const isOwn = (step) => step.deleteRow !== undefined || step.clear !== undefined;

test(`the model server groups every case (${fixture.cases.length}) as RowBuilder does`, () => {
  assert.ok(fixture.cases.length >= 30);
  for (const c of fixture.cases) {
    let calls = c.calls;
    assert.deepEqual(buildRows(calls, c.state, c.view), { rows: c.rows, hasMore: c.hasMore }, c.name);
    c.steps.forEach((step, index) => {
      const state = { editing: step.editing, revealedRowId: step.revealedRowId };
      if (step.deleteRow !== undefined) {
        // The server deletes the row as the request's view groups it now.
        const whole = { filter: step.filter, tz: step.tz, limit: Infinity };
        const row = buildRows(calls, state, whole).rows.find((r) => r.id === step.deleteRow);
        assert.deepEqual(row?.callIds, step.deleted, `${c.name}, step ${index}`);
      }
      calls = [...calls.filter((call) => !step.deleted.includes(call.id)), ...(step.insert ?? [])];
      const got = buildRows(calls, state, c.view);
      assert.deepEqual(got, { rows: step.rows, hasMore: step.hasMore }, `${c.name}, step ${index}`);
    });
  }
});

/** The page's action for an own step: Delete on a row as its view shows it, or Delete all. */
function actionOf(step, screen, view) {
  if (step.clear) return { kind: 'clear', scope: 'me' };
  const sameView = step.filter === view.filter && step.tz === view.tz;
  // In the case's view the row is one on screen; in another view, the calls it had there.
  const callIds = sameView ? screen.rows.find((r) => r.id === step.deleteRow).callIds : step.deleted;
  return { kind: 'delete', rowId: step.deleteRow, callIds, scope: 'me', filter: step.filter, tz: step.tz, name: 'x' };
}

test('every own action of the fixture shows at once what the fixture shows', () => {
  let checked = 0;
  for (const c of fixture.cases) {
    let server = { rows: c.rows, hasMore: c.hasMore, ...c.state, view: c.view };
    let pending = [];
    let screen = screenOf(server, pending);
    c.steps.forEach((step, index) => {
      if (!isOwn(step)) {
        // A server change confirms the own actions before it: the page shows the server's view.
        server = { rows: step.rows, hasMore: step.hasMore, editing: step.editing, revealedRowId: step.revealedRowId, view: c.view };
        pending = [];
        screen = screenOf(server, pending);
        return;
      }
      pending = [...pending, actionOf(step, screen, c.view)];
      screen = screenOf(server, pending);
      checked += 1;
      const where = `${c.name}, step ${index}`;
      assert.deepEqual({ rows: screen.rows, hasMore: screen.hasMore }, step.shown, where);
      assert.equal(screen.revealedRowId, step.revealedRowId, where);
    });
  }
  assert.ok(checked >= 40);
});
