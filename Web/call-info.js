// call-info.js: the view a row's (i) button opens, in the layout of Telegram's peer page in "calls"
// mode (ItemListCallListItem): the peer, a date header, then one line per call of the row's group,
// newest first: its time, its kind word and its duration where it has one. One request answers it
// (`GET rows/{rowId}`); it is asked again, with its ETag, whenever the screen shows the group changed
// (a call joined it, which gives the row a new id) or no longer shows it (deleted elsewhere: the
// server's 404 closes the view with a notice; merely out of the window: the answer keeps it open;
// renamed there by a joining call: `GET calls/{old id}/row` finds it under its new id).

import { callWordsOf } from './call-words.js';
import { avatarColour, initials } from './format.js';
import { RecentsError } from './recents-client.js';

/** The kind word of a call of `GET rows/{rowId}` in `locale`: "Missed", "Incoming Video", … */
export function kindWord(call, locale) {
  const words = callWordsOf(locale);
  return (call.video ? words.videoKinds : words.kinds)[call.kind] ?? call.kind;
}

/** A call's duration as Telegram writes it (seconds under a minute, else whole minutes); '' for none. */
export function durationText(seconds, locale) {
  if (!seconds || seconds < 0) return '';
  const [value, unit] = seconds < 60 ? [seconds, 'second'] : [Math.floor(seconds / 60), 'minute'];
  return new Intl.NumberFormat(locale.tag, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}

/** A Unix time as a Date whose UTC fields are the view's local time (`tz` minutes east). */
const shifted = (timestamp, tz) => new Date((timestamp + tz * 60) * 1000);

/** What the view shows for an answer of `GET rows/{rowId}`, in zone `tz`: `{date, lines}`. */
export function infoContent(info, tz, locale) {
  const newest = info.calls[0]?.timestamp ?? info.row.timestamp;
  const date = new Intl.DateTimeFormat(locale.tag, { dateStyle: 'long', timeZone: 'UTC' }).format(shifted(newest, tz));
  const lines = info.calls.map((call) => ({
    id: call.id,
    time: locale.formats.time.format(shifted(call.timestamp, tz)),
    kind: kindWord(call, locale),
    missed: call.kind === 'missed',
    duration: durationText(call.duration, locale),
  }));
  return { date, lines };
}

/** Whether two lists of call ids are the same group. */
const sameIds = (a, b) => a.length === b.length && a.every((id, i) => id === b[i]);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class CallInfo {
  /**
   * @param {object} o
   * @param {HTMLDialogElement} o.dialog `#call-info`
   * @param {import('./recents-client.js').RecentsClient} o.client
   * @param {object} o.locale locale.js's Locale of the page
   * @param {() => {filter: string, tz: number}} o.view the view the screen shows (its rows' grouping)
   * @param {(text: string) => void} o.notice the page's notice
   */
  constructor({ dialog, client, locale, view, notice }) {
    this.dialog = dialog;
    this.client = client;
    this.locale = locale;
    this.view = view;
    this.notice = notice;
    this.row = null;
    this.etag = null;
    this.onScreen = true;
    this.offScreenVersion = null;
    this.fetching = false;
    this.again = false;
    this.opener = null;
    this.generation = 0;
    this.words = callWordsOf(locale);
    dialog.querySelector('.call-info-close').textContent = this.words.close;
    dialog.querySelector('.call-info-close').addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => this.#closed());
  }

  get isOpen() {
    return this.row !== null;
  }

  /** Opens the view for `row` (as the screen shows it); focus goes back to `opener` when it closes. */
  open(row, opener = null) {
    this.generation += 1;
    this.row = row;
    this.etag = null;
    this.onScreen = true;
    this.opener = opener;
    const avatar = this.dialog.querySelector('.avatar');
    avatar.className = `avatar avatar-${avatarColour(row.peer.id)}`;
    avatar.textContent = initials(row.peer.name);
    this.dialog.querySelector('.call-info-name').textContent = row.peer.name;
    this.dialog.querySelector('.call-info-date').textContent = '';
    this.dialog.querySelector('.call-info-calls').replaceChildren();
    this.dialog.dataset.rowId = row.id;
    delete this.dialog.dataset.version;
    this.dialog.showModal();
    this.dialog.querySelector('.call-info-close').focus();
    this.#fetch();
  }

  /**
   * The screen changed (at server `version`): asks again when the row's group changed or the
   * screen lost it, and at each new version while the row is beyond the window.
   */
  screenChanged(screen, version = null) {
    if (!this.row || !screen.view) return;
    const ids = new Set(this.row.callIds);
    const now = screen.rows.find((r) => r.callIds.some((id) => ids.has(id))) ?? null;
    if (now) {
      const changed = !sameIds(now.callIds, this.row.callIds);
      this.row = now;
      this.onScreen = true;
      if (changed) this.#fetch();
    } else if (this.onScreen || version !== this.offScreenVersion) {
      // Beyond the window the screen cannot tell whether the group changed: each new version of
      // the list asks again (with the ETag; a call joining there renames the row, see #fetch).
      this.onScreen = false;
      this.offScreenVersion = version;
      this.#fetch();
    }
  }

  /** Asks for the row (one request at a time; a change meanwhile asks once more after it). */
  async #fetch() {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    const generation = this.generation;
    try {
      do {
        this.again = false;
        const rowId = this.row.id;
        let answer;
        try {
          answer = await this.client.rowInfoSince(rowId, this.view(), this.dialog.dataset.rowId === rowId ? this.etag : null);
        } catch (e) {
          if (generation !== this.generation) return;
          if (e instanceof RecentsError && e.status === 404) {
            const moved = await this.#findMoved(rowId);
            if (generation !== this.generation) return;
            // No answer is not "deleted": the view stays; the next change of the screen asks again.
            if (moved === undefined) continue;
            if (moved) {
              this.row = moved.row;
              this.etag = null;
              this.#render(moved);
              continue;
            }
            this.dialog.close();
            this.notice(this.words.rowGone);
            return;
          }
          // No link: the view keeps what it shows; the next change of the screen asks again.
          continue;
        }
        if (generation !== this.generation) return;
        this.etag = answer.etag;
        if (answer.info) this.#render(answer.info);
      } while (this.again && generation === this.generation);
    } finally {
      if (generation === this.generation) this.fetching = false;
    }
  }

  /**
   * The row under its new id when a call joined its group beyond the screen's window (the row's
   * id is its newest call's, so the old id is now a call inside it); null when the server says it
   * is gone (404), undefined when no answer came (a cut link, a 5xx).
   */
  async #findMoved(rowId) {
    try {
      return await this.client.rowOfCall(rowId, this.view());
    } catch (e) {
      return e instanceof RecentsError && e.status === 404 ? null : undefined;
    }
  }

  #render(info) {
    const { date, lines } = infoContent(info, this.view().tz, this.locale);
    this.dialog.dataset.rowId = info.row.id;
    this.dialog.dataset.version = String(info.version);
    this.dialog.querySelector('.call-info-name').textContent = info.row.peer.name;
    this.dialog.querySelector('.call-info-date').textContent = date;
    const items = lines.map((line) => {
      const li = element('li', 'call-line');
      li.dataset.id = line.id;
      li.append(element('time', 'call-time', line.time), element('span', `call-kind${line.missed ? ' missed' : ''}`, line.kind));
      if (line.duration) li.append(element('span', 'call-duration', line.duration));
      return li;
    });
    this.dialog.querySelector('.call-info-calls').replaceChildren(...items);
  }

  #closed() {
    this.generation += 1;
    this.fetching = false;
    const row = this.row;
    this.row = null;
    const opener = this.opener;
    this.opener = null;
    // Back to the (i) button of the row as it is now (a call that joined it gave it a new node), else
    // the one that opened the view; never a node on its way out (it is removed when its animation ends).
    const current = row && document.querySelector(`#rows .row:not(.leaving)[data-id="${CSS.escape(row.id)}"] .row-info`);
    const live = opener?.isConnected && !opener.closest('.leaving') ? opener : null;
    (current ?? live ?? document.querySelector('#rows .row:not(.leaving) .row-content'))?.focus();
  }
}
