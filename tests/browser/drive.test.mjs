// drive.test.mjs — the M113 driven with the keys in the playground (headless chromium, software WebGL): it and
// its terrain scenes are in the gallery, its Track drive folder has throttle and steer, W held drives it forward
// and W + A turns it left, the camera following the hull; 20 s of simulated time, whose real-time factor and frame
// rate are printed, never asserted. Every wait is on the simulation state the page shows, never on a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { control, openPage, pick, shots, until, usePlayground, yaw } from './harness.mjs';

const SETTLE = 0.5;      // s before the keys go down
const STRAIGHT = 10;     // s with W held
const TURN = 20;         // s: W and A held from STRAIGHT until then

const pg = usePlayground(5581);

test('m113: in the gallery with its terrain scenes; W drives it forward, W + A turns it left, the camera follows', async (t) => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  for (const name of ['m113', 'm113_ramp', 'm113_bumps']) assert.equal(await page.locator(`.card[data-model="${name}"]`).count(), 1, `${name} in the gallery`);
  await pick(page, 'm113');
  const model = await page.evaluate(() => window.playground.describe());
  const hull = model.bodies.findIndex((b) => b.name === 'hull');
  assert.equal(await control(page, 'Track drive', 'throttle').count(), 1, 'a throttle slider');
  assert.equal(await control(page, 'Track drive', 'steer').count(), 1, 'a steer slider');
  assert.equal(await control(page, 'View', 'camera follows').locator('input').isChecked(), true, 'the camera follows by default');

  await page.evaluate(() => document.activeElement?.blur());
  await page.click('#play');
  const s0 = await until(page, SETTLE);
  await page.keyboard.down('w');
  assert.deepEqual(await page.evaluate(() => { const i = window.playground.inputs(); return [i.throttle, i.steer]; }), [1, 0]);
  const c0 = await page.evaluate(() => window.playground.camera());
  const wall0 = Date.now();
  const s1 = await until(page, STRAIGHT);
  await page.keyboard.down('a');
  assert.deepEqual(await page.evaluate(() => { const i = window.playground.inputs(); return [i.throttle, i.steer]; }), [1, 1]);
  const s2 = await until(page, TURN);
  const wall = (Date.now() - wall0) / 1000;
  await page.keyboard.up('a');
  await page.keyboard.up('w');
  assert.deepEqual(await page.evaluate(() => { const i = window.playground.inputs(); return [i.throttle, i.steer]; }), [0, 0]);
  await page.click('#play');
  const c2 = await page.evaluate(() => window.playground.camera());
  const rtf = (s2.time - s0.time) / wall;
  t.diagnostic(`m113 driven ${(s2.time - s0.time).toFixed(2)} s of simulated time in ${wall.toFixed(1)} s of wall time: real-time factor ` +
    `${rtf.toFixed(3)} (the page's own meter: ${s2.rtf.toFixed(3)}), ${s2.fps.toFixed(1)} frames/s; dt ${(await page.evaluate(() => window.playground.settings().dt)) * 1e3} ms`);
  const at = (s) => [s.poses[7 * hull], s.poses[7 * hull + 1], yaw(s.poses, hull)];
  const [x0, y0, a0] = at(s0), [x1, y1, a1] = at(s1), [x2, y2, a2] = at(s2);
  t.diagnostic(`hull (x, y, yaw): (${x0.toFixed(2)}, ${y0.toFixed(2)}, ${a0.toFixed(3)}) at ${s0.time.toFixed(2)} s, ` +
    `(${x1.toFixed(2)}, ${y1.toFixed(2)}, ${a1.toFixed(3)}) at ${s1.time.toFixed(2)} s with W, ` +
    `(${x2.toFixed(2)}, ${y2.toFixed(2)}, ${a2.toFixed(3)}) at ${s2.time.toFixed(2)} s with W + A`);
  assert.ok(x1 - x0 > 2, `W drove it forward: x ${x0} -> ${x1}`);
  // Heading +x when A went down, a left turn carries it to +y whatever the angle turned (a right one to −y);
  // the yaw is read modulo 2π, so it shows how far (more than half a turn in 10 s).
  const turned = (((a2 - a1) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  t.diagnostic(`turned ${turned.toFixed(3)} rad (mod 2π) to the left with W + A`);
  assert.ok(y2 - y1 > 1, `W + A turned it left: y ${y1} -> ${y2}`);
  assert.ok(turned > 0.3, `W + A turned it: yaw ${a1} -> ${a2}`);
  // The camera's target moved with the hull.
  const moved = Math.hypot(x2 - x0, y2 - y0);
  const followed = Math.hypot(c2[3] - c0[3], c2[4] - c0[4]);
  assert.ok(Math.abs(followed - moved) < 0.25 * moved + 0.5, `the camera followed: target ${followed} m, hull ${moved} m`);
  // It follows the middle of the vehicle, which stays in the middle of the view through the turn.
  const f = await page.evaluate(() => window.playground.framing());
  const [cx, cy] = [(f.left + f.right) / 2, (f.top + f.bottom) / 2];
  assert.ok(Math.abs(cx - 0.5) < 0.2 && Math.abs(cy - 0.5) < 0.25, `the vehicle's middle is at (${cx}, ${cy}) of the view`);
  await page.screenshot({ path: join(shots, 'm113-driven.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
