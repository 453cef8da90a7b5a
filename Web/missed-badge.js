// missed-badge.js: the missed-calls badge every device of a list shares (`unseenMissed`, which every
// transition carries, relayed between tabs by stream-share.js like the rest of the view), and the
// page's seen mark. The Missed segment says "Missed 3" and the document's title starts with "(3) "
// while the count is above 0. The page marks what it showed as seen while it is visible and focused:
// an own action like Edit (optimistic: the badge clears at once; queued offline; sent with its key).

import { newestMissed } from './actions.js';
import { callWordsOf } from './call-words.js';

/** The Missed segment's text: "Missed 3" while `count` > 0, else the plain word. */
export function missedSegmentText(count, locale) {
  if (!(count > 0)) return locale.word('filterMissed');
  return callWordsOf(locale).missedCount.replace('{count}', locale.numbers.format(count));
}

/** The document title for `count` unseen missed calls: "(3) Recents", or the plain title at 0. */
export function badgedTitle(title, count) {
  return count > 0 ? `(${count}) ${title}` : title;
}

/**
 * The `through` of a seen mark the page should send for `screen`, or null: only while the badge
 * counts, through the newest missed call shown, and only past the last mark this page sent (so a
 * count the page cannot clear, of calls it does not show, never makes it send the same mark again).
 */
export function markToSend(screen, lastSent) {
  if (!(screen.unseenMissed > 0)) return null;
  const through = newestMissed(screen.rows);
  if (through === null || (lastSent !== null && through <= lastSent)) return null;
  return through;
}

export class MissedBadge {
  /**
   * @param {object} o
   * @param {import('./sync.js').ListSync} o.sync
   * @param {object} o.locale locale.js's Locale of the page
   * @param {Document} o.doc the page's document (its title, visibility and focus)
   * @param {HTMLElement} o.segment the Missed segment's button
   */
  constructor({ sync, locale, doc, segment }) {
    this.sync = sync;
    this.locale = locale;
    this.doc = doc;
    this.segment = segment;
    this.title = doc.title;
    this.lastSent = null;
    this.timer = null;
    const later = () => this.later();
    doc.defaultView.addEventListener('focus', later);
    doc.addEventListener('visibilitychange', later);
  }

  /** Shows the screen's count, and marks it seen when the page is looked at. */
  render(screen) {
    const count = screen.unseenMissed ?? 0;
    this.segment.textContent = missedSegmentText(count, this.locale);
    const title = badgedTitle(this.title, count);
    if (this.doc.title !== title) this.doc.title = title;
    this.later();
  }

  /** Checks after the current change is on screen (an action from inside a change would nest it). */
  later() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.markIfLookedAt(), 0);
  }

  markIfLookedAt() {
    if (this.doc.visibilityState !== 'visible' || !this.doc.hasFocus() || !this.sync.replica) return;
    const through = markToSend(this.sync.screen, this.lastSent);
    if (through === null) return;
    this.lastSent = through;
    this.sync.act({ kind: 'seen', through });
  }
}
