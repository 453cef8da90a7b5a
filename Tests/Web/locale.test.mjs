// The page in its reader's language (Web/locale.js, through format.js): the word tables, the choice of
// language, row times per locale and zone (today, yesterday, this week, older, a year ago; 12- and
// 24-hour clocks), plurals and notices, and the first-paint step's slot-by-slot localization of the
// server's rows agreeing byte for byte with what row-markup.js renders in that language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Locale, pick, readerLocale } from '../../Web/format.js';
import { rowHTML } from '../../Web/row-markup.js';
import { parse } from './support/mini-dom.mjs';

const { words, localizeRow } = globalThis.recentsLocale;
const languages = Object.keys(words);
const now = Date.UTC(2026, 11, 1, 10, 0) / 1000; // Tuesday 1 December 2026, 10:00 UTC
const hours = 3600;
const days = 86400;
// Intl may put a narrow no-break space before AM/PM (newer ICU): compare with plain spaces.
const spaced = (text) => text.replace(/\s/g, ' ');

test('the page has words for English, German, Spanish, French, Russian, Portuguese and Japanese', () => {
  for (const lang of ['en', 'de', 'es', 'fr', 'ru', 'pt', 'ja']) assert.ok(languages.includes(lang), lang);
});

test('every language has every word of English, with the same slots and a form for each plural category', () => {
  const slots = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const lang of languages) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, english] of Object.entries(words.en)) {
      const value = words[lang][key];
      assert.ok(value !== undefined, `${lang}.${key} is missing`);
      if (typeof english === 'string') {
        assert.deepEqual(slots(value), slots(english), `${lang}.${key} has the slots of English`);
      } else if ('other' in english) {
        for (const category of categories) assert.ok(value[category], `${lang}.${key} has a ${category} form`);
      } else {
        for (const [sub, text] of Object.entries(english)) {
          assert.deepEqual(slots(value[sub] ?? ''), slots(text), `${lang}.${key}.${sub} has the slots of English`);
        }
      }
    }
  }
});

test("the language is the first of the reader's the page has words for, written as the reader wrote it", () => {
  assert.equal(pick(['de-AT', 'en']), 'de-AT');
  assert.equal(pick(['it-IT', 'fr-CA', 'en']), 'fr-CA');
  assert.equal(pick(['DE-de']), 'de-DE');
  assert.equal(pick(['it', 'nl']), 'en', 'no table: English');
  assert.equal(pick(['not a tag!', 'ja-JP']), 'ja-JP', 'a malformed tag is passed over');
  assert.equal(pick([]), 'en');
  const win = (search, languages) => ({ location: { search }, navigator: { languages, language: languages[0] } });
  assert.equal(readerLocale(win('?lang=ru', ['de-DE'])).tag, 'ru', '?lang= first, for tests');
  assert.equal(readerLocale(win('?list=a', ['pt-BR', 'en'])).tag, 'pt-BR');
  assert.equal(readerLocale(win('', ['ja'])).word('edit'), '編集');
});

// [tag, today 09:00 UTC, 21:30 UTC, yesterday, Saturday (3 days ago), 24 Nov (a week ago), 1 Dec 2025 (a year ago)]
const calendar = [
  ['en-US', '9:00 AM', '9:30 PM', 'Yesterday', 'Saturday', '11/24/26', '12/1/25'],
  ['en-GB', '09:00', '21:30', 'Yesterday', 'Saturday', '24/11/2026', '01/12/2025'],
  ['de-DE', '09:00', '21:30', 'Gestern', 'Samstag', '24.11.26', '01.12.25'],
  ['es-ES', '9:00', '21:30', 'Ayer', 'Sábado', '24/11/26', '1/12/25'],
  ['fr-FR', '09:00', '21:30', 'Hier', 'Samedi', '24/11/2026', '01/12/2025'],
  ['ru-RU', '09:00', '21:30', 'Вчера', 'Суббота', '24.11.2026', '01.12.2025'],
  ['pt-BR', '09:00', '21:30', 'Ontem', 'Sábado', '24/11/2026', '01/12/2025'],
  ['ja-JP', '9:00', '21:30', '昨日', '土曜日', '2026/11/24', '2025/12/01'],
];

for (const [tag, today, evening, yesterday, weekday, older, yearAgo] of calendar) {
  test(`times in ${tag}: today, yesterday, this week, older, a year ago`, () => {
    const locale = new Locale(tag);
    const time = (ts, tz = 0, at = now) => spaced(locale.time(ts, tz, at));
    assert.equal(time(now - hours), today);
    assert.equal(time(now - hours + 12.5 * hours, 0, now + 12 * hours), evening, 'the evening, in 12 or 24 hours');
    assert.equal(time(now - 11 * hours), yesterday);
    assert.equal(time(now - 3 * days), weekday);
    assert.equal(time(now - 7 * days), older);
    assert.equal(time(now - 365 * days), yearAgo);
    assert.equal(time(now + 2 * days), spaced(new Intl.DateTimeFormat(tag, { dateStyle: 'short', timeZone: 'UTC' }).format(new Date((now + 2 * days) * 1000))), 'the future: the date');
  });
}

test("times are in the view's zone: a call before midnight UTC is today east of it and yesterday west of it", () => {
  const de = new Locale('de-DE');
  // 23:00 UTC the day before is 01:00 today at UTC+2.
  assert.equal(de.time(now - 11 * hours, 120, now), '01:00');
  // 03:00 UTC today is 22:00 yesterday at UTC-5.
  assert.equal(de.time(now - 7 * hours, -300, now), 'Gestern');
  // A half-hour zone: 09:00 UTC is 14:30 at UTC+5:30.
  assert.equal(de.time(now - hours, 330, now), '14:30');
  assert.equal(spaced(new Locale('en-US').time(now - hours, 330, now)), '2:30 PM');
});

test('plurals follow each language: Russian one, few and many; Japanese one form; counts in local digits', () => {
  const ru = new Locale('ru');
  assert.equal(ru.offline(1), 'Нет сети: 1 изменение ждёт отправки');
  assert.equal(ru.offline(3), 'Нет сети: 3 изменения ждут отправки');
  assert.equal(ru.offline(5), 'Нет сети: 5 изменений ждут отправки');
  assert.equal(ru.offline(21), 'Нет сети: 21 изменение ждёт отправки');
  assert.equal(ru.offline(0), 'Нет сети');
  assert.equal(new Locale('en').offline(1), 'Offline: 1 change waits to be sent');
  assert.equal(new Locale('en').offline(2), 'Offline: 2 changes wait to be sent');
  assert.equal(new Locale('ja').offline(3), 'オフライン: 3件の変更が送信待ちです');
  assert.equal(new Locale('de').plural('waiting', 1000), '1.000 Änderungen warten auf das Senden');
  const rows = (n) => Array.from({ length: n }, (_, i) => ({ peer: { name: `P${i}` }, count: 1 }));
  assert.equal(new Locale('de').deleted(rows(1)), 'P0 gelöscht');
  assert.equal(new Locale('de').deleted(rows(2)), '2 Zeilen gelöscht');
});

test('a refused action reads as a sentence of its own in each language', () => {
  const refused = (status, detail = null, name = 'Bob Lee') => ({ action: { key: 'delete', name }, status, detail });
  assert.equal(new Locale('en').notice(refused(404)), "Couldn't delete Bob Lee: it changed on another device");
  assert.equal(new Locale('de').notice(refused(409)), 'Bob Lee ließ sich nicht löschen: auf einem anderen Gerät geändert');
  assert.equal(new Locale('ja').notice(refused(404)), 'Bob Leeを削除できませんでした: 別のデバイスで変更されました');
  assert.equal(new Locale('fr').notice(refused(403, 'Forbidden')), 'Impossible de supprimer Bob Lee\u00a0: Forbidden');
  assert.equal(new Locale('es').notice(refused(500)), 'No se pudo eliminar Bob Lee: HTTP 500');
  assert.equal(new Locale('en').notice({ action: { key: 'open', name: null }, status: 409 }), "Couldn't open the row: it changed on another device");
  assert.equal(new Locale('ru').notice({ action: { key: 'clear' }, status: 409 }), 'Не удалось удалить все звонки: изменено на другом устройстве');
});

const fixture = JSON.parse(readFileSync(new URL('../Fixtures/rows-markup.json', import.meta.url), 'utf8'));

test('a row in German and Japanese: every word and label of the contract in that language', () => {
  const c = fixture.cases.find((x) => x.name === 'edit mode with the row open');
  const html = (tag) => rowHTML(c.row, { tz: c.tz, now: fixture.now, buttonWidth: fixture.buttonWidth, locale: new Locale(tag) });
  const de = html('de-DE');
  assert.match(de, /aria-label="Löschen: Bob Lee">Löschen<\/button>/);
  assert.match(de, /aria-label="Bob Lee, verpasster Videoanruf, 11:00"/);
  assert.match(de, /aria-label="Löschen für Bob Lee zeigen"/);
  assert.match(de, /<span class="row-status-text">Verpasst<\/span>/);
  const ja = html('ja-JP');
  assert.match(ja, /aria-label="Bob Leeを削除">削除<\/button>/);
  assert.match(ja, /aria-label="Bob Lee、ビデオ通話の不在着信、11:00"/);
  assert.match(ja, /<time class="row-time">11:00<\/time>/);
});

test("the first-paint step turns the server's row into exactly the page's row, in every language", () => {
  for (const c of fixture.cases) {
    assert.equal(parse(c.html).outerHTML, c.html, `${c.name}: the mini DOM reads and writes the contract`);
    for (const lang of languages) {
      const locale = new Locale(lang);
      const li = parse(c.html);
      localizeRow(li, locale.rowWords(c.row, c.tz, fixture.now));
      const page = rowHTML(c.row, { tz: c.tz, now: fixture.now, buttonWidth: fixture.buttonWidth, locale });
      assert.equal(li.outerHTML, page, `${c.name} in ${lang}`);
    }
  }
});
