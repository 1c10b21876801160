// framing.test.mjs — where a model is in the view: small scenes on large static colliders (the bristlebot on its
// floor box, the bowling pins) are framed by their bodies and rods, so they fill the view; a floating model with
// nothing under it (the satellite) gets a note that it is in free fall, while a model held by its joints
// (threelink) and a vehicle on its ground (the M113) get none.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WAIT, openPage, pick, usePlayground } from './harness.mjs';

const pg = usePlayground(6473);

const toast = (page) => page.evaluate(() => {
  const el = document.getElementById('toast');
  return el.hidden ? '' : el.textContent;
});

test('the bristlebot and the bowling pins fill the view, not their floor', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  // The camera's distance to what it frames, against the scene's own size: the bristlebot's body is 44 mm long
  // (framed with its floor box the camera stood 0.6 m off); ball, pins and ropes frame from 7 m (with the lane and
  // its wall, 29 m).
  for (const [name, within] of [['bristlebot', 0.2], ['bowling', 12]]) {
    await pick(page, name);
    const f = await page.evaluate(() => window.playground.framing());
    const [w, h] = [f.right - f.left, f.bottom - f.top];
    assert.ok(Math.max(w, h) > 0.6, `${name} spans ${w.toFixed(2)} × ${h.toFixed(2)} of the view`);
    const c = await page.evaluate(() => window.playground.camera());
    const distance = Math.hypot(c[0] - c[3], c[1] - c[4], c[2] - c[5]);
    assert.ok(distance < within, `${name}: the camera is ${distance.toFixed(3)} m from its target`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a model in free fall is said to be so; one held by joints or standing on a ground is not', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  assert.doesNotMatch(await toast(page), /free fall/);
  await pick(page, 'satellite');
  await page.waitForFunction(() => /satellite is in free fall/.test(document.getElementById('toast').textContent), null, WAIT);
  await pick(page, 'm113');
  assert.doesNotMatch(await toast(page), /m113 is in free fall/);
  assert.deepEqual(errors, []);
  await context.close();
});
