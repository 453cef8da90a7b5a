// swipe.js: horizontal drags on rows with pointer events. The row follows the pointer 1:1 while the
// finger is down; the release (offsets and velocity in px/s) goes to the caller, who asks the server
// where the row settles. Vertical moves are left to the browser's scrolling (touch-action: pan-y).

const slop = 8;
const velocityWindowMs = 100;

/** The release velocity in px/s from recent `{x, t}` samples (the last 100 ms), 0 when unknown. */
export function releaseVelocity(samples) {
  if (samples.length < 2) return 0;
  const last = samples[samples.length - 1];
  let first = samples[0];
  for (const s of samples) {
    if (last.t - s.t <= velocityWindowMs) {
      first = s;
      break;
    }
  }
  const dt = last.t - first.t;
  return dt > 0 ? ((last.x - first.x) / dt) * 1000 : 0;
}

/**
 * Listens for swipes on the `.row-content` elements inside `container`.
 * `hooks.offsetOf(id)` is the row's offset when the drag starts; `hooks.move(id, offset)` follows
 * the pointer; `hooks.release(id, {initialOffset, offset, velocity})` ends a drag.
 */
export function attachSwipe(container, hooks) {
  let drag = null;

  container.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !e.isPrimary) return;
    const content = e.target.closest('.row-content');
    if (!content || e.target.closest('button')) return;
    const id = content.closest('.row')?.dataset.id;
    if (!id || !hooks.enabled(id)) return;
    drag = { id, content, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, initialOffset: hooks.offsetOf(id) };
    drag.samples = [{ x: e.clientX, t: e.timeStamp }];
    drag.state = 'pending';
  });

  container.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = e.clientX - drag.x0;
    const dy = e.clientY - drag.y0;
    if (drag.state === 'pending') {
      if (Math.abs(dy) > slop && Math.abs(dy) > Math.abs(dx)) {
        drag = null;
        return;
      }
      if (Math.abs(dx) <= slop) return;
      drag.state = 'dragging';
      drag.content.setPointerCapture(e.pointerId);
      hooks.begin(drag.id);
    }
    drag.samples.push({ x: e.clientX, t: e.timeStamp });
    if (drag.samples.length > 20) drag.samples.shift();
    hooks.move(drag.id, Math.min(0, drag.initialOffset + dx));
  });

  const end = (e, cancelled) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = drag;
    drag = null;
    if (d.state !== 'dragging') return;
    // A drag is not a tap: the click that may follow this pointerup is ignored (see app.js).
    d.content.dataset.dragEndedAt = String(e.timeStamp);
    const offset = Math.min(0, d.initialOffset + (e.clientX - d.x0));
    d.samples.push({ x: e.clientX, t: e.timeStamp });
    const velocity = cancelled ? 0 : releaseVelocity(d.samples);
    hooks.release(d.id, { initialOffset: d.initialOffset, offset, velocity: Math.round(velocity) });
  };
  container.addEventListener('pointerup', (e) => end(e, false));
  container.addEventListener('pointercancel', (e) => end(e, true));
}
