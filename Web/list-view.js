// list-view.js: the rows in the DOM. It applies a diff (a transition's deletes, inserts and updates)
// to keyed row nodes, never rebuilding the list, and animates it as the cause's reason and options
// say, the way Telegram's ListView does. Row nodes are made from row-markup.js's strings, so rows
// the server put into the page are adopted as they are.
//
// MARK: - The markup contract (the server reproduces it for the first rows of `/`; docs/CLIENTS.md)
//
// Inside `<ul id="rows" class="rows" aria-label="Calls">` (class `rows editing` when the view's
// `editing` is true), one `<li>` per row of the view, in order, nothing between them. For a row R
// shown in zone tz (minutes east of UTC) at time now, with W = buttonWidth (74) × R.options.count:
//
//   <li class="row[ revealed]" data-id="{R.id}" data-offset="{R.revealed ? -W : 0}">
//    <div class="row-actions"[ inert]>                      inert unless R.revealed
//     <button type="button" class="row-delete" tabindex="{R.revealed ? 0 : -1}"
//      aria-label="{T} {N}">{T}</button></div>
//    <div class="row-content" tabindex="0" role="group" aria-label="{N}, {S lowercased} {K}, {time}">
//     <button type="button" class="row-minus" tabindex="{R.editing ? 0 : -1}"
//      aria-label="Show {T} for {N}"><span aria-hidden="true"></span></button>
//     <span class="avatar avatar-{colour}" aria-hidden="true">{initials}</span>
//     <span class="row-text"><span class="row-name[ missed]">{N}</span>
//      <span class="row-status"><span class="glyph[ video]" data-kind="{video|phone}" aria-hidden="true"></span>
//      <span class="row-status-text">{S}</span></span></span>
//     <time class="row-time">{time}</time>
//     <button type="button" class="row-info" aria-label="Call info"><span aria-hidden="true"></span></button></div></li>
//
// written on one line with no whitespace between tags (the line breaks above are for reading), where
//   N = R.peer.name, plus " (R.count)" when R.count > 1;  T = the title of R's last option ("Delete");
//   S = "Missed" if R.missed, else "Outgoing" if R.status is outgoing, else "Incoming";
//   K = "video call" if R.video else "call";  `missed` class iff R.missed; `video` class iff R.video;
//   initials = the first code point of the first and of the last word of R.peer.name (words split on
//     JavaScript's \s, i.e. Unicode White_Space and U+FEFF), upper-cased with the full Unicode mapping
//     ("ß" → "SS"); one word gives one letter; no word gives "?";
//   colour = FNV-1a (32-bit, offset 0x811c9dc5, prime 0x01000193) over R.peer.id's UTF-16 units, mod 7;
//   time (format.js rowTime): with day(t) = floor((t + tz·60) / 86400) and d = day(now) − day(R.timestamp):
//     d = 0 → "HH:mm" (local, 24 h); d = 1 → "Yesterday"; 2 ≤ d ≤ 6 → the English weekday ("Friday");
//     else (a week or more, or the future) "dd.MM.yy" (local);
//   text and attribute values escape & < > " as &amp; &lt; &gt; &quot; (nothing else); boolean
//   attributes are written bare (`inert`). Tests/Fixtures/rows-markup.json holds worked cases.
// That is the contract's fixed English form, which the server writes. The page writes the same markup
// in the reader's language (T, S, the labels and the time from locale.js); before the first paint,
// locale.js puts the server's rows into that language slot by slot, so the page adopts them as they are.

import { rowHTML } from './row-markup.js';

const duration = 300;
const easing = 'cubic-bezier(0.23, 1, 0.32, 1)';

/** How a change animates: by the reason and options of what caused it (see docs/API.md, "reason and options"). */
export function animationPlan(t) {
  const options = new Set(t.options ?? []);
  if (t.reason === 'reloadAnimated' || options.has('animateCrossfade')) return 'crossfade';
  if (t.reason === 'interactiveChanges' && (options.has('animateInsertion') || options.has('animateAlpha'))) {
    return 'animated';
  }
  return 'none';
}

/** Makes `target` (an element) equal to `source`, keeping its nodes: attributes and text, except inline styles. */
function morph(target, source) {
  for (const { name } of [...target.attributes]) {
    if (name !== 'style' && !source.hasAttribute(name)) target.removeAttribute(name);
  }
  for (const { name, value } of source.attributes) {
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
  const a = target.childNodes;
  const b = source.childNodes;
  const sameShape = a.length === b.length && [...a].every((n, i) => n.nodeName === b[i].nodeName);
  if (!sameShape) {
    target.replaceChildren(...[...b].map((n) => n.cloneNode(true)));
    return;
  }
  for (let i = 0; i < a.length; i += 1) {
    if (a[i].nodeType === Node.TEXT_NODE) {
      if (a[i].nodeValue !== b[i].nodeValue) a[i].nodeValue = b[i].nodeValue;
    } else {
      morph(a[i], b[i]);
    }
  }
}

/** The rows of one list in a `<ul>`, one `<li>` per row, in the order of the screen. */
export class ListView {
  constructor(ul, { buttonWidth = 74, reducedMotion = () => false, locale = undefined } = {}) {
    this.ul = ul;
    this.buttonWidth = buttonWidth;
    this.locale = locale;
    this.reducedMotion = reducedMotion;
    this.nodes = [];
    this.tz = 0;
    this.dragging = null;
    this.parser = document.createElement('template');
  }

  /** The node of a row id, or null. */
  node(id) {
    return this.nodes.find((n) => n.dataset.id === id) ?? null;
  }

  /**
   * Takes the rows already in the `<ul>` (put there by the server) as the nodes of `rows`, when they
   * are those rows in that order; else renders `rows`. Returns whether the server's nodes were kept.
   */
  adopt(rows) {
    const present = [...this.ul.children].filter((n) => n.matches('li.row'));
    const fits = present.length === rows.length && present.every((n, i) => n.dataset.id === rows[i].id);
    if (fits) {
      // Written by the server in this very markup (the contract): nothing to rewrite.
      this.nodes = present;
      return true;
    }
    this.ul.replaceChildren(...this.make(rows));
    this.nodes = [...this.ul.children];
    return false;
  }

  /** Nodes for `rows`, parsed from their markup in one go. */
  make(rows) {
    const now = Date.now() / 1000;
    const options = { tz: this.tz, now, buttonWidth: this.buttonWidth, locale: this.locale };
    this.parser.innerHTML = rows.map((row) => rowHTML(row, options)).join('');
    return [...this.parser.content.children];
  }

  /**
   * Applies a diff `d` (deletes at old indices, inserts and updates at new ones) whose result is `rows`,
   * animated by `plan` ('animated', 'fade', 'crossfade', 'none'); resolves when its animations end.
   */
  apply(d, rows, plan) {
    if (this.reducedMotion() && plan === 'animated') plan = 'fade';
    const running = [];
    this.lastPlan = plan;
    for (let k = d.deletes.length - 1; k >= 0; k -= 1) {
      const [node] = this.nodes.splice(d.deletes[k].index, 1);
      if (!node) continue;
      node.classList.add('leaving');
      node.setAttribute('aria-hidden', 'true');
      if (plan === 'animated') {
        const a = node.animate([{ height: `${node.offsetHeight}px`, opacity: 1 }, { height: '0px', opacity: 0 }], {
          duration,
          easing,
        });
        running.push(a.finished.then(() => node.remove(), () => node.remove()));
      } else if (plan === 'fade') {
        const a = node.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 150 });
        running.push(a.finished.then(() => node.remove(), () => node.remove()));
      } else {
        node.remove();
      }
    }
    const made = this.make(d.inserts.map((i) => i.row));
    d.inserts.forEach((i, k) => {
      const node = made[k];
      this.nodes.splice(i.index, 0, node);
      const next = this.nodes[i.index + 1];
      const prev = this.nodes[i.index - 1];
      if (next) this.ul.insertBefore(node, next);
      else if (prev) this.ul.insertBefore(node, prev.nextSibling);
      else this.ul.append(node);
      if (plan === 'animated') {
        const from = i.directionHint === 'down' ? { transform: 'translateY(-100%)', opacity: 0 } : { opacity: 0 };
        const to = i.directionHint === 'down' ? { transform: 'translateY(0)', opacity: 1 } : { opacity: 1 };
        running.push(node.animate([from, to], { duration, easing }).finished.catch(() => {}));
      } else if (plan === 'fade') {
        running.push(node.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 150 }).finished.catch(() => {}));
      }
    });
    for (const u of d.updates) {
      const node = this.nodes[u.index];
      if (node) running.push(this.fill(node, u.row, plan !== 'none'));
    }
    if (plan === 'crossfade') {
      running.push(this.ul.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: 250 }).finished.catch(() => {}));
    }
    if (this.nodes.length !== rows.length) throw new Error('the DOM lost track of the rows');
    return Promise.all(running);
  }

  /** The parts of a row node the page reads, looked up once per node. */
  parts(node) {
    node.parts ??= { content: node.querySelector('.row-content'), del: node.querySelector('.row-delete') };
    return node.parts;
  }

  /**
   * Writes a row into its node (its markup, node by node); when the row opens or closes and is not
   * being dragged, its content slides to the new offset. Resolves when that slide ends.
   */
  fill(node, row, animate = false) {
    const before = Number(node.dataset.offset ?? 0);
    const now = Date.now() / 1000;
    this.parser.innerHTML = rowHTML(row, { tz: this.tz, now, buttonWidth: this.buttonWidth, locale: this.locale });
    morph(node, this.parser.content.firstElementChild);
    const after = Number(node.dataset.offset);
    if (!animate || before === after || this.dragging === row.id) return Promise.resolve();
    return this.slide(node, before);
  }

  /** Follows the pointer: the row's content at `offset` px (an inline style, while the finger is down). */
  setOffset(node, offset) {
    this.parts(node).content.style.transform = `translateX(${offset}px)`;
  }

  /**
   * Ends a drag: the inline offset goes, and the content slides from where the finger left it
   * (`from` px) to where the row settles (its `data-offset`, which its class places).
   */
  settle(node, from) {
    this.parts(node).content.style.transform = '';
    return this.slide(node, from);
  }

  slide(node, from) {
    const to = Number(node.dataset.offset);
    if (from === to || this.reducedMotion()) return Promise.resolve();
    const content = this.parts(node).content;
    const a = content.animate([{ transform: `translateX(${from}px)` }, { transform: `translateX(${to}px)` }], {
      duration,
      easing,
    });
    return a.finished.catch(() => {});
  }

  /** Sets the time zone offset (minutes east) times are shown in; rows shown are rewritten in it. */
  setTimeZone(tz, rows = []) {
    if (this.tz === tz) return;
    this.tz = tz;
    rows.forEach((row, i) => this.nodes[i] && this.fill(this.nodes[i], row));
  }

  /** Shows or hides the edit-mode minus controls. */
  setEditing(editing) {
    this.ul.classList.toggle('editing', editing);
  }
}
