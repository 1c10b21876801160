// scene-controls.test.mjs — a scene's own controls in the Settings panel (scene-controls.js), on the bowling scene:
// Throw starts the scene over with the ball at the slider's speed, and Reset pins raises the carriages and sets
// the knocked pins down standing. Everything is read from the state the page shows (window.playground.status());
// every wait is on that state. The throw is read at time scale 0.1: the worker steps on its own toward wall-clock
// time, so at time scale 1 a slow software renderer may show the first frame after the throw late in the roll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { control, openPage, pick, shots, status, tilt, until, usePlayground } from './harness.mjs';

const SPEED = 5;        // m/s: the slider's value thrown
const SPEED_TOL = 0.3;  // m/s
const RISE = 0.2;       // m every carriage rises at least while the pins hang
const UPRIGHT = 20;     // degrees: a pin's axis within this of vertical stands
const LONG = { timeout: 600_000 };

const pg = usePlayground(5973);

test('bowling: Throw rolls the ball at the slider\'s speed; Reset pins lifts the carriages and stands the pins up', async (t) => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await pick(page, 'bowling');
  const names = (await page.evaluate(() => window.playground.describe())).bodies.map((b) => b.name);
  const ball = names.indexOf('ball');
  const pins = names.flatMap((n, i) => (/^pin\d+$/.test(n) ? [i] : []));
  const carriages = names.flatMap((n, i) => (/^carriage\d+$/.test(n) ? [i] : []));
  assert.equal(pins.length, 10);
  assert.equal(carriages.length, 10);

  const opened = await status(page);
  assert.ok(!opened.playing && opened.time === 0, 'the scene opens paused at its start');

  // Throw: the scene starts over and the ball rolls along +y at the slider's speed, not the file's 10 m/s.
  const timeScale = control(page, 'Simulation', 'time scale').locator('input');
  await timeScale.fill('0.1');
  await timeScale.press('Enter');
  const speed = control(page, 'Bowling', 'Ball speed').locator('input');
  await speed.fill(String(SPEED));
  await speed.press('Enter');
  await control(page, 'Bowling', 'Throw').locator('button').click();
  await page.waitForFunction(() => {
    const s = window.playground.status();
    return s.playing && s.time > 0 && s.time < 0.5;
  }, null, LONG);
  const thrown = await status(page);
  const v = thrown.velocities.slice(6 * ball, 6 * ball + 3);
  t.diagnostic(`t = ${thrown.time.toFixed(3)} s after Throw: ball velocity ${v.map((x) => x.toFixed(3)).join(' ')} m/s`);
  assert.ok(thrown.time < 0.3, `read ${thrown.time} s after the throw`);
  assert.ok(Math.abs(v[1] - SPEED) < SPEED_TOL && Math.abs(v[0]) < SPEED_TOL, `ball velocity ${v}`);
  await timeScale.fill('1');
  await timeScale.press('Enter');

  // The ball has been through the pins: some lie on the lane.
  const knocked = await until(page, 2);
  const down = pins.filter((p) => tilt(knocked.poses, p) > UPRIGHT).length;
  t.diagnostic(`${down} pins down at t = ${knocked.time.toFixed(3)} s`);
  assert.ok(down > 0, 'the ball knocked pins down');

  // Reset pins: every carriage rises while the pins hang, and then the pins stand.
  await control(page, 'Bowling', 'Reset pins').locator('button').click();
  const start = await status(page);
  const held = await until(page, start.time + 1);
  const rise = Math.min(...carriages.map((c) => held.poses[7 * c + 2] - start.poses[7 * c + 2]));
  t.diagnostic(`carriages up by ${rise.toFixed(3)} m at least, ${(held.time - start.time).toFixed(3)} s after Reset pins`);
  assert.ok(held.time < start.time + 1.5, `read while the pins hang: ${held.time - start.time} s after`);
  assert.ok(rise > RISE, `carriages up by ${rise} m`);
  const after = await until(page, start.time + 5);
  const tilts = pins.map((p) => tilt(after.poses, p));
  t.diagnostic(`pin tilts ${tilts.map((x) => x.toFixed(1)).join(' ')}° at t = ${after.time.toFixed(3)} s`);
  assert.ok(tilts.every((x) => x < UPRIGHT), `pin tilts ${tilts}`);
  await page.screenshot({ path: join(shots, 'bowling-reset-pins.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
