// list-view.js: the rows in the DOM. It applies a transition's deletes, inserts and updates to keyed
// row nodes (never rebuilding the list, so a batch append does not flash) and animates them as the
// transition's reason and options say, the way Telegram's ListView does.

import { avatarColour, displayName, initials, rowLabel, rowTime, statusText } from './format.js';

const duration = 300;
const easing = 'cubic-bezier(0.23, 1, 0.32, 1)';

/** How a transition animates: by its reason and options (see docs/API.md, "reason and options"). */
export function animationPlan(t) {
  const options = new Set(t.options ?? []);
  if (t.reason === 'reloadAnimated' || options.has('animateCrossfade')) return 'crossfade';
  if (t.reason === 'interactiveChanges' && (options.has('animateInsertion') || options.has('animateAlpha'))) {
    return 'animated';
  }
  return 'none';
}

/** The rows of one list in a `<ul>`, one `<li>` per row, in the order of the model. */
export class ListView {
  constructor(ul, template, { buttonWidth = 74, reducedMotion = () => false } = {}) {
    this.ul = ul;
    this.template = template;
    this.buttonWidth = buttonWidth;
    this.reducedMotion = reducedMotion;
    this.nodes = [];
    this.tz = 0;
    this.dragging = null;
  }

  /** The node of a row id, or null. */
  node(id) {
    return this.nodes.find((n) => n.dataset.id === id) ?? null;
  }

  /** Applies a transition whose result is `rows`; resolves when its animations have finished. */
  apply(t, rows) {
    const plan = this.reducedMotion() && animationPlan(t) === 'animated' ? 'fade' : animationPlan(t);
    const running = [];
    this.lastPlan = plan;
    if (t.from === null) {
      for (const n of this.nodes) n.remove();
      this.nodes = [];
    }
    for (let k = t.deletes.length - 1; k >= 0; k -= 1) {
      const [node] = this.nodes.splice(t.deletes[k].index, 1);
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
    for (const i of t.inserts) {
      const node = this.make(i.row);
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
    }
    for (const u of t.updates) {
      const node = this.nodes[u.index];
      if (node) this.fill(node, u.row);
    }
    if (plan === 'crossfade') {
      running.push(this.ul.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: 250 }).finished.catch(() => {}));
    }
    if (this.nodes.length !== rows.length) throw new Error('the DOM lost track of the rows');
    return Promise.all(running);
  }

  make(row) {
    const node = this.template.content.firstElementChild.cloneNode(true);
    this.fill(node, row);
    return node;
  }

  /** The parts of a row node that `fill` writes, looked up once per node. */
  parts(node) {
    if (!node.parts) {
      const q = (s) => node.querySelector(s);
      node.parts = {
        avatar: q('.avatar'), name: q('.row-name'), status: q('.row-status-text'), glyph: q('.glyph'),
        time: q('.row-time'), content: q('.row-content'), del: q('.row-delete'), actions: q('.row-actions'),
        minus: q('.row-minus'),
      };
    }
    return node.parts;
  }

  /** Writes a row into its node; the swipe offset follows `revealed` unless the row is being dragged. */
  fill(node, row) {
    const p = this.parts(node);
    const name = displayName(row);
    node.dataset.id = row.id;
    p.avatar.className = `avatar avatar-${avatarColour(row.peer.id)}`;
    p.avatar.textContent = initials(row.peer.name);
    p.name.textContent = name;
    p.name.classList.toggle('missed', row.missed);
    p.status.textContent = statusText(row);
    p.glyph.classList.toggle('video', row.video);
    p.glyph.dataset.kind = row.video ? 'video' : 'phone';
    p.time.textContent = rowTime(row.timestamp, this.tz);
    p.content.setAttribute('aria-label', rowLabel(row, this.tz));
    p.del.setAttribute('aria-label', `Delete ${name}`);
    p.del.tabIndex = row.revealed ? 0 : -1;
    p.actions.inert = !row.revealed;
    p.minus.setAttribute('aria-label', `Show Delete for ${name}`);
    p.minus.tabIndex = row.editing ? 0 : -1;
    node.classList.toggle('revealed', row.revealed);
    if (this.dragging !== row.id) this.setOffset(node, row.revealed ? -this.buttonWidth : 0, true);
  }

  /** Moves a row's content to `offset` px, following the pointer (settle false) or animating (true). */
  setOffset(node, offset, settle) {
    const content = this.parts(node).content;
    node.classList.toggle('settling', settle && !this.reducedMotion());
    content.style.transform = offset === 0 ? '' : `translateX(${offset}px)`;
    node.dataset.offset = String(offset);
  }

  /** Sets the time zone offset (minutes east) times are shown in. */
  setTimeZone(tz) {
    this.tz = tz;
  }

  /** Shows or hides the edit-mode minus controls. */
  setEditing(editing) {
    this.ul.classList.toggle('editing', editing);
  }
}
