// gesture.js: where a released swipe settles, decided on the page by the server's own rule
// (RecentsCore `Gesture.decide`), with the numbers the server publishes (`GET /v1/rules`), so the row
// settles within a frame of the release and the server, told the same release, decides the same.

/** The rules the page uses until the server's arrive: Telegram's numbers, as `GET /v1/rules` answers today. */
export const defaultRules = Object.freeze({
  gesture: Object.freeze({ buttonWidth: 74, slowVelocity: 100, buttonMarginMaxOptions: 2, fullSwipeMargin: 16 }),
  rowOptions: Object.freeze([Object.freeze({ key: 'delete', title: 'Delete', destructive: true })]),
  rows: Object.freeze({ defaultLimit: 50, maxLimit: 1000 }),
});

/**
 * Decides a release `{initialOffset, offset, velocity, buttonWidth?}` on a row with `optionCount`
 * right-side options: `{outcome: 'open'|'closed'|'selected', selectedOptionIndex, settleOffset}`.
 * Offsets and velocity are negative toward the left (revealing the options), as the API's are.
 */
export function decide(release, optionCount, rule = defaultRules.gesture) {
  const closed = { outcome: 'closed', selectedOptionIndex: null, settleOffset: 0 };
  if (optionCount <= 0) return closed;
  const buttonWidth = release.buttonWidth ?? rule.buttonWidth;
  const width = buttonWidth * optionCount;
  const slow = Math.abs(release.velocity) < rule.slowVelocity;
  const reveal = slow
    ? (release.initialOffset === 0 && release.offset < 0) || release.offset < -width
    : release.velocity < 0;
  const threshold =
    optionCount <= rule.buttonMarginMaxOptions ? width + buttonWidth : width + rule.fullSwipeMargin;
  if (reveal && Math.abs(release.offset) > threshold) {
    return { outcome: 'selected', selectedOptionIndex: optionCount - 1, settleOffset: 0 };
  }
  if (reveal) return { outcome: 'open', selectedOptionIndex: null, settleOffset: -width };
  return closed;
}
