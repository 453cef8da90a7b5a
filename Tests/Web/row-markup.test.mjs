// The markup contract of a row (Web/row-markup.js, written out in list-view.js and docs/CLIENTS.md):
// every case of Tests/Fixtures/rows-markup.json renders to exactly its saved HTML, which the server's
// own renderer is held to as well (a Swift test reads the same file). RECENTS_WRITE_FIXTURES=1 writes
// the file from the cases below; review the diff before committing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { listHTML, rowHTML } from '../../Web/row-markup.js';

const fixtureURL = new URL('../Fixtures/rows-markup.json', import.meta.url);
const now = 1764590400; // Monday 1 December 2025, 12:00 UTC
const buttonWidth = 74;
const options = [{ key: 'delete', title: 'Delete', destructive: true }];

/** A row as `GET rows` answers it, with the members in the server's order. */
function row(id, { peer = ['bob', 'Bob Lee'], calls = [id], timestamp = now - 3600, missed = false, incoming = true, outgoing = false,
  video = false, duration = 0, revealed = false, editing = false } = {}) {
  const count = calls.length;
  const status = missed ? 'missed' : incoming && outgoing ? 'mixed' : incoming ? 'incoming' : 'outgoing';
  return { id, peer: { id: peer[0], name: peer[1] }, count, callIds: calls, timestamp, missed, incoming, outgoing, video,
    duration: count === 1 ? duration : null, status, revealed, editing, options };
}

const cases = [
  ['a missed call today', 0, row('c-1', { missed: true })],
  ['an outgoing video call yesterday', 0, row('c-2', { peer: ['carol', 'Carol Diaz'], timestamp: now - 86400, incoming: false, outgoing: true, video: true, duration: 312 })],
  ['three calls both ways, a weekday', 0, row('c-3', { peer: ['dave', 'Dave'], calls: ['c-3', 'c-2b', 'c-1b'], timestamp: now - 3 * 86400, outgoing: true })],
  ['an open row', 0, row('c-4', { revealed: true })],
  ['edit mode', 0, row('c-5', { editing: true })],
  ['edit mode with the row open', 0, row('c-6', { editing: true, revealed: true, missed: true, video: true })],
  ['a week or more ago: the date', 0, row('c-7', { timestamp: now - 7 * 86400 })],
  ['a call in the future: the date', 0, row('c-8', { timestamp: now + 2 * 86400 })],
  ['markup characters in the name', 0, row('c-9', { peer: ['erin', `Zoë «Ana» & <b>"Bo"</b> 'x'`] })],
  ['spaces around and between words', 0, row('c-10', { peer: ['frank', '  ana   maria\u00a0lopez  '] })],
  ['one lowercase word, a sharp s', 0, row('c-11', { peer: ['grace', 'ßen'] })],
  ['a first letter outside the BMP', 0, row('c-12', { peer: ['heidi', '😀 Smile Face'] })],
  ['west of UTC, the day before', -300, row('c-13', { timestamp: now - 13 * 3600 })],
  ['east of UTC, the next day', 840, row('c-14', { timestamp: now - 3600 })],
  ['a half-hour zone', 330, row('c-15', { timestamp: now - 600 })],
  ...['ivan', 'judy', 'mallory', 'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor'].map((peer, i) => [`avatar colour of ${peer}`, 0, row(`c-2${i}`, { peer: [peer, peer] })]),
];

const listCase = {
  name: 'a view in edit mode (the <ul> with its rows)',
  tz: 330,
  editing: true,
  rows: [row('l-3', { editing: true, missed: true, calls: ['l-3', 'l-2'] }), row('l-1', { peer: ['carol', 'Carol'], editing: true, revealed: true, timestamp: now - 90000 })],
};

function build() {
  return {
    about: 'The markup contract of a row (Web/row-markup.js; docs/CLIENTS.md "Markup of the first rows"): each case is a row as GET rows answers it, the viewer zone tz (minutes east) and the HTML the page and the server render for it at Unix time now.',
    now,
    buttonWidth,
    cases: cases.map(([name, tz, r]) => ({ name, tz, row: r, html: rowHTML(r, { tz, now, buttonWidth }) })),
    list: { ...listCase, html: listHTML(listCase.rows, { editing: true, tz: listCase.tz, now, buttonWidth }) },
  };
}

if (process.env.RECENTS_WRITE_FIXTURES === '1') {
  const f = build();
  const lines = ['{', `"about": ${JSON.stringify(f.about)},`, `"now": ${f.now}, "buttonWidth": ${f.buttonWidth},`, '"cases": ['];
  f.cases.forEach((c, i) => lines.push(`${JSON.stringify(c)}${i < f.cases.length - 1 ? ',' : ''}`));
  lines.push('],', `"list": ${JSON.stringify(f.list)}`, '}');
  writeFileSync(fixtureURL, `${lines.join('\n')}\n`);
}

const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8'));

test('every row of the fixture renders to its saved HTML', () => {
  assert.ok(fixture.cases.length >= 20);
  for (const c of fixture.cases) {
    assert.equal(rowHTML(c.row, { tz: c.tz, now: fixture.now, buttonWidth: fixture.buttonWidth }), c.html, c.name);
  }
  const l = fixture.list;
  assert.equal(listHTML(l.rows, { editing: l.editing, tz: l.tz, now: fixture.now, buttonWidth: fixture.buttonWidth }), l.html);
});

test('the fixture is the cases of this file (regenerate with RECENTS_WRITE_FIXTURES=1)', () => {
  assert.deepEqual(fixture, JSON.parse(JSON.stringify(build())));
});

test('the contract says what a reader expects of each state', () => {
  const html = Object.fromEntries(fixture.cases.map((c) => [c.name, c.html]));
  assert.match(html['an open row'], /^<li class="row revealed" data-id="c-4" data-offset="-74"><div class="row-actions"><button type="button" class="row-delete" tabindex="0"/);
  assert.match(html['a missed call today'], /<div class="row-actions" inert>.*tabindex="-1"/);
  assert.match(html['a missed call today'], /<span class="row-name missed">Bob Lee<\/span>.*<time class="row-time">11:00<\/time>/);
  assert.match(html['edit mode'], /class="row-minus" tabindex="0"/);
  assert.match(html['an outgoing video call yesterday'], /class="glyph video" data-kind="video".*Outgoing.*>Yesterday</);
  assert.match(html['three calls both ways, a weekday'], />Dave \(3\)<.*>Incoming<.*>Friday</);
  assert.match(html['a week or more ago: the date'], />24\.11\.25</);
  assert.match(html['markup characters in the name'], />Zoë «Ana» &amp; &lt;b&gt;&quot;Bo&quot;&lt;\/b&gt; 'x'</);
  assert.match(html['spaces around and between words'], /aria-hidden="true">AL</);
  assert.match(html['one lowercase word, a sharp s'], /aria-hidden="true">SS</);
  assert.match(html['a first letter outside the BMP'], /aria-hidden="true">😀F</);
  assert.match(html['west of UTC, the day before'], />Yesterday</);
  assert.match(html['east of UTC, the next day'], />01:00</);
  assert.match(html['a half-hour zone'], />17:20</);
  const colours = new Set(fixture.cases.map((c) => c.html.match(/avatar-(\d)/)[1]));
  assert.equal(colours.size, 7, 'the cases cover all seven avatar colours');
  assert.match(fixture.list.html, /^<ul id="rows" class="rows editing" aria-label="Calls"><li class="row" data-id="l-3".*<\/li><li class="row revealed" data-id="l-1".*<\/li><\/ul>$/);
});

test('docs/CLIENTS.md shows rows exactly as the fixture has them', () => {
  const doc = readFileSync(new URL('../../docs/CLIENTS.md', import.meta.url), 'utf8');
  const html = Object.fromEntries(fixture.cases.map((c) => [c.name, c.html]));
  for (const name of ['a missed call today', 'an open row', 'edit mode with the row open']) {
    assert.ok(doc.includes(`\`\`\`html\n${html[name]}\n\`\`\``), name);
  }
});
