// framing.test.mjs — what the page says about where a model is: a floating model with nothing under it (the
// satellite) gets a note that it is in free fall; a model held by its joints (threelink) and a vehicle on its
// ground (the M113) get none.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WAIT, openPage, pick, usePlayground } from './harness.mjs';

const pg = usePlayground(6473);

const toast = (page) => page.evaluate(() => {
  const el = document.getElementById('toast');
  return el.hidden ? '' : el.textContent;
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
