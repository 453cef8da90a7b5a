// row-markup.js: the HTML of one row as a string, the markup contract the server reproduces when it
// puts the first rows into `/` (see the contract in list-view.js and docs/CLIENTS.md). Pure: the
// page builds its row nodes from these strings, so server-rendered and page-rendered rows are one markup.

import { avatarColour, contract, initials } from './format.js';

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text or an attribute value with `& < > "` escaped (the one rule for both). */
export function escapeHTML(value) {
  return String(value).replace(/[&<>"]/g, (c) => escapes[c]);
}

/** The title of a row's outermost option (the button under the sliding row), in `locale`. */
export function optionTitle(row, locale = contract) {
  return locale.option(row.options?.at(-1));
}

/** The offset of an open row: its options' width (`buttonWidth` × options), negative. */
export function openOffset(row, buttonWidth) {
  return -(buttonWidth * Math.max(1, row.options?.length ?? 1));
}

/**
 * One row's `<li>`, in the viewer's zone `tz` (minutes east) at Unix time `now` (seconds), with the
 * words and dates of `locale` (by default the contract's English, which the server writes; the page
 * passes the reader's). Attribute order, quoting and escaping are part of the contract; there is no
 * whitespace between tags. The slots that depend on the language are those locale.js's `localizeRow` fills.
 */
export function rowHTML(row, { tz, now, buttonWidth, locale = contract }) {
  const w = locale.rowWords(row, tz, now);
  const name = escapeHTML(w.name);
  const title = escapeHTML(w.option);
  const time = escapeHTML(w.time);
  const offset = row.revealed ? openOffset(row, buttonWidth) : 0;
  return (
    `<li class="row${row.revealed ? ' revealed' : ''}" data-id="${escapeHTML(row.id)}" data-offset="${offset}">` +
    `<div class="row-actions"${row.revealed ? '' : ' inert'}>` +
    `<button type="button" class="row-delete" tabindex="${row.revealed ? 0 : -1}" ` +
    `aria-label="${escapeHTML(w.optionLabel)}">${title}</button>` +
    `</div>` +
    `<div class="row-content" tabindex="0" role="group" aria-label="${escapeHTML(w.label)}">` +
    `<button type="button" class="row-minus" tabindex="${row.editing ? 0 : -1}" aria-label="${escapeHTML(w.revealLabel)}">` +
    `<span aria-hidden="true"></span></button>` +
    `<span class="avatar avatar-${avatarColour(row.peer.id)}" aria-hidden="true">` +
    `${escapeHTML(initials(row.peer.name))}</span>` +
    `<span class="row-text"><span class="row-name${row.missed ? ' missed' : ''}">${name}</span>` +
    `<span class="row-status"><span class="glyph${row.video ? ' video' : ''}" ` +
    `data-kind="${row.video ? 'video' : 'phone'}" aria-hidden="true"></span>` +
    `<span class="row-status-text">${escapeHTML(w.status)}</span></span></span>` +
    `<time class="row-time">${time}</time>` +
    `<button type="button" class="row-info" aria-label="${escapeHTML(w.infoLabel)}"><span aria-hidden="true"></span></button>` +
    `</div></li>`
  );
}

/** The rows of a view, concatenated with nothing between them (the content of `<ul id="rows">`). */
export function rowsHTML(rows, options) {
  return rows.map((row) => rowHTML(row, options)).join('');
}

/** The list element of a view, rows included: what `/` carries in place of the empty `<ul id="rows">`. */
export function listHTML(rows, { editing, ...options }) {
  return `<ul id="rows" class="rows${editing ? ' editing' : ''}" aria-label="Calls">${rowsHTML(rows, options)}</ul>`;
}
