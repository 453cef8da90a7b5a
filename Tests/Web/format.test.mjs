// Unit tests of the page's pure text rules (node --test Tests/Web).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { avatarColour, displayName, initials, rowTime, statusText } from '../../Web/format.js';

test('initials take the first letters of the first and last words', () => {
  assert.equal(initials('Bob Lee'), 'BL');
  assert.equal(initials('carol'), 'C');
  assert.equal(initials('  ana maria  lopez '), 'AL');
  assert.equal(initials(''), '?');
});

test('the avatar colour is stable and spread over seven colours', () => {
  assert.equal(avatarColour('bob'), avatarColour('bob'));
  const colours = new Set(Array.from({ length: 50 }, (_, i) => avatarColour(`peer-${i}`)));
  assert.ok(colours.size >= 5, `only ${colours.size} colours`);
  for (const c of colours) assert.ok(c >= 0 && c < 7);
});

test('a grouped row shows its count, a single one does not', () => {
  assert.equal(displayName({ peer: { name: 'Bob' }, count: 3 }), 'Bob (3)');
  assert.equal(displayName({ peer: { name: 'Bob' }, count: 1 }), 'Bob');
});

test('status names missed, outgoing and incoming rows', () => {
  assert.equal(statusText({ missed: true, status: 'missed' }), 'Missed');
  assert.equal(statusText({ missed: false, status: 'outgoing' }), 'Outgoing');
  assert.equal(statusText({ missed: false, status: 'incoming' }), 'Incoming');
  assert.equal(statusText({ missed: false, status: 'mixed', incoming: true, outgoing: true }), 'Incoming');
});

test("the contract's times (what the server writes): today HH:mm, Yesterday, a weekday within the week, else the date", () => {
  const now = Date.UTC(2026, 11, 1, 10, 0) / 1000; // Tuesday 1 Dec 2026, 10:00 UTC
  assert.equal(rowTime(now - 3600, 0, now), '09:00');
  assert.equal(rowTime(now - 3600, 120, now), '11:00');
  assert.equal(rowTime(now - 11 * 3600, 0, now), 'Yesterday');
  // 23:00 UTC the day before is already today at UTC+2.
  assert.equal(rowTime(now - 11 * 3600, 120, now), '01:00');
  assert.equal(rowTime(now - 3 * 86400, 0, now), 'Saturday');
  assert.equal(rowTime(now - 7 * 86400, 0, now), '24.11.26');
});
