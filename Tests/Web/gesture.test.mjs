// The page's swipe decision against the server's: every release of Tests/Fixtures/gesture-decisions.json
// (written by RecentsCore's GestureFixtureTests from `Gesture.decide`) decides the same on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decide, defaultRules } from '../../Web/gesture.js';

const fixture = JSON.parse(readFileSync(new URL('../Fixtures/gesture-decisions.json', import.meta.url), 'utf8'));

test('the default rules are the fixture rule (the numbers GET /v1/rules publishes)', () => {
  assert.deepEqual({ ...defaultRules.gesture }, fixture.rule);
});

test(`every release of the fixture (${fixture.cases.length}) decides as the server does`, () => {
  assert.ok(fixture.cases.length >= 700);
  const wrong = [];
  for (const c of fixture.cases) {
    const got = decide(c, c.optionCount, fixture.rule);
    const want = { outcome: c.outcome, selectedOptionIndex: c.selectedOptionIndex, settleOffset: c.settleOffset };
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ case: c, got });
  }
  assert.deepEqual(wrong, []);
});

test('the rule is read, not assumed: another slow velocity changes a decision', () => {
  const release = { initialOffset: -74, offset: -40, velocity: 150, buttonWidth: 74 };
  assert.equal(decide(release, 1, fixture.rule).outcome, 'closed');
  assert.equal(decide(release, 1, { ...fixture.rule, slowVelocity: 200 }).outcome, 'closed');
  const slowOpen = { initialOffset: 0, offset: -40, velocity: -150, buttonWidth: 74 };
  assert.equal(decide(slowOpen, 1, fixture.rule).outcome, 'open');
  assert.equal(decide({ ...slowOpen, velocity: 150 }, 1, { ...fixture.rule, slowVelocity: 200 }).outcome, 'open');
  assert.equal(decide({ ...slowOpen, velocity: 150 }, 1, fixture.rule).outcome, 'closed');
});
