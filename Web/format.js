// format.js: pure text rules of a row (initials, avatar colour, status, local time), tested with node --test.
// The words and dates of each language live in locale.js (a classic script the page also runs before its
// first paint); this module is their face for the other modules.

import './locale.js';

const shared = globalThis.recentsLocale;
export const Locale = shared.Locale;
export const displayName = shared.displayName;
export const pick = shared.pick;
export const readerTag = shared.readerTag;
export const statusKey = shared.statusKey;

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The number of avatar colours (classes `avatar-0` … `avatar-6`, Telegram's seven). */
export const avatarColours = 7;

/** Up to two initials of a name: the first letters of its first and last words. */
export function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** A stable colour index for a peer id (FNV-1a of its UTF-16 units), so every client agrees. */
export function avatarColour(peerId) {
  let h = 0x811c9dc5;
  for (let i = 0; i < peerId.length; i += 1) {
    h ^= peerId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % avatarColours;
}

/** The row's status line in `locale`: Missed, Outgoing or Incoming (a mixed row is named by its newest call). */
export function statusText(row, locale = contract) {
  return locale.words.status[statusKey(row)];
}

/** The browser's UTC offset in minutes east, the `tz` view parameter. */
export function viewerOffset(date = new Date()) {
  return -date.getTimezoneOffset();
}

function two(n) {
  return String(n).padStart(2, '0');
}

/**
 * The time at the right of a row in the markup contract's fixed form (what the server renders into `/`,
 * before the page puts it into the reader's language), in the viewer's zone given as an offset in
 * minutes east of UTC: today `HH:mm`, yesterday `Yesterday`, within the last week the English weekday,
 * else `dd.MM.yy`. `now` and `timestamp` are Unix seconds.
 */
export function rowTime(timestamp, tz, now = Date.now() / 1000) {
  const local = (s) => new Date((s + tz * 60) * 1000);
  const day = (s) => Math.floor((s + tz * 60) / 86400);
  const t = local(timestamp);
  const days = day(now) - day(timestamp);
  if (days === 0) return `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`;
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7) return weekdays[t.getUTCDay()];
  return `${two(t.getUTCDate())}.${two(t.getUTCMonth() + 1)}.${two(t.getUTCFullYear() % 100)}`;
}

/** The accessible label of a row in `locale`, read as one phrase. */
export function rowLabel(row, tz, now, locale = contract) {
  return locale.rowWords(row, tz, now).label;
}

/**
 * The markup contract's words and times: English, 24-hour `HH:mm` and `dd.MM.yy` and the server's own
 * option titles, whatever the reader's language (docs/CLIENTS.md, "Markup of the first rows"); what
 * `rowHTML` writes by default, as the server does.
 */
export const contract = new Locale('en', { times: rowTime, options: (option) => option?.title ?? 'Delete' });

/** The page's locale: `?lang=` (for tests), else the first of the reader's languages the page has words for. */
export function readerLocale(win = globalThis) {
  return new Locale(readerTag(win));
}
