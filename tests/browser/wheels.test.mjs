// wheels.test.mjs — the HMMWV driven on its tires with the keys in the playground (headless chromium, software
// WebGL): it and its terrain scenes are in the gallery, its Wheel drive folder has throttle and steer, W held for
// 5 s of simulated time drives it forward and W + A for 5 s more turns it left, the chassis staying up; a share
// link to a driving scene (hmmwv_ramp) reopens it. Every wait is on the simulation state the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { control, openPage, pick, shots, status, until, usePlayground, yaw } from './harness.mjs';

const SETTLE = 0.5;      // s before the keys go down
const STRAIGHT = 5.5;    // s: W held from SETTLE until then
const TURN = 10.5;       // s: W and A held from STRAIGHT until then

const pg = usePlayground(5587);

for (const name of ['hmmwv', 'hmmwv_pitman']) {
  test(`${name}: W drives it forward on its tires, W + A turns it left, nothing collapses`, async (t) => {
    const { page, context, errors } = await openPage(pg.browser, pg.base);
    for (const card of [name, 'hmmwv_ramp', 'hmmwv_bumps']) assert.equal(await page.locator(`.card[data-model="${card}"]`).count(), 1, `${card} in the gallery`);
    await pick(page, name);
    const model = await page.evaluate(() => window.playground.describe());
    const chassis = model.bodies.findIndex((b) => b.name === 'chassis');
    assert.equal(await control(page, 'Wheel drive', 'throttle').count(), 1, 'a throttle slider');
    assert.equal(await control(page, 'Wheel drive', 'steer').count(), 1, 'a steer slider');
    await page.evaluate(() => document.activeElement?.blur());
    await page.click('#play');
    const s0 = await until(page, SETTLE);
    await page.keyboard.down('w');
    const s1 = await until(page, STRAIGHT);
    await page.keyboard.down('a');
    assert.deepEqual(await page.evaluate(() => { const i = window.playground.inputs(); return [i.throttle, i.steer]; }), [1, 1]);
    const s2 = await until(page, TURN);
    await page.keyboard.up('a');
    await page.keyboard.up('w');
    await page.click('#play');
    const at = (s) => [s.poses[7 * chassis], s.poses[7 * chassis + 1], s.poses[7 * chassis + 2], yaw(s.poses, chassis)];
    const [x0, , z0] = at(s0), [x1, y1, , a1] = at(s1), [, y2, z2, a2] = at(s2);
    t.diagnostic(`${name}: x ${x0.toFixed(2)} -> ${x1.toFixed(2)} m with W; y ${y1.toFixed(2)} -> ${y2.toFixed(2)} m, yaw ${a1.toFixed(3)} -> ${a2.toFixed(3)} with W + A; chassis z ${z0.toFixed(3)} -> ${z2.toFixed(3)} m; ${s2.fps.toFixed(1)} frames/s, RTF ${s2.rtf.toFixed(2)}`);
    assert.ok(x1 - x0 > 5, `W drove it forward: x ${x0} -> ${x1}`);
    assert.ok(y2 - y1 > 1, `W + A turned it left: y ${y1} -> ${y2}`);
    assert.ok(z2 > z0 - 0.1, `the chassis stays up: z ${z0} -> ${z2}`);
    await page.screenshot({ path: join(shots, `${name}-driven.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a share link to a driving scene (hmmwv_ramp) reopens it', async () => {
  const { page, context } = await openPage(pg.browser, pg.base);
  await pick(page, 'hmmwv_ramp');
  await page.click('#share');
  const link = await page.evaluate(() => location.hash);
  await context.close();
  const fresh = await openPage(pg.browser, pg.base + link);
  await fresh.page.waitForFunction(() => window.playground.status().loaded, null, { timeout: 60_000 });
  const s = await status(fresh.page);
  assert.equal(s.model, 'hmmwv_ramp');
  assert.equal(await control(fresh.page, 'Wheel drive', 'throttle').count(), 1, 'drivable again');
  await fresh.context.close();
});
