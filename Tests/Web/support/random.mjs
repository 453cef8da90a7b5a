// A small seeded generator (mulberry32), so a failing randomized run can be replayed from its seed.

/** A function returning numbers in [0, 1) from `seed`. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Calls from `rnd`: `calls(k)` makes the next k, each later than the last, from bob, carol or
 * dave, incoming or outgoing, missed or not.
 */
export function callMaker(rnd) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  let clock = 1764460800;
  let n = 0;
  return (k) =>
    Array.from({ length: k }, () => {
      clock += pick([60, 600, 30000]);
      n += 1;
      return { id: `c-${n}`, peer: { id: pick(['bob', 'carol', 'dave']), name: pick(['Bob', 'Carol', 'Dave']) }, direction: pick(['incoming', 'outgoing']), endReason: pick(['missed', 'hangup']), timestamp: clock };
    });
}
