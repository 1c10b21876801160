// go2-gallery.test.mjs — the shipped Unitree Go2 (models/robots/unitree_go2/) in the playground's gallery (headless
// chromium, software WebGL): the first page fetches none of its mesh files; picking its card fetches them (beside
// its text in wasm/dist/models/unitree_go2/) and draws them; it runs. Screenshot in build/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { WAIT, openPage, pick, playBriefly, shots, usePlayground } from './harness.mjs';

const pg = usePlayground(5693);

test('the shipped Go2: meshes fetched when it is opened, not before, and drawn', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  const meshes = [];
  page.on('request', (r) => {
    if (/\.obj$/.test(new URL(r.url()).pathname)) meshes.push(r.url());
  });
  await page.waitForFunction(() => window.playground.status().loaded, null, WAIT);
  assert.deepEqual(meshes, [], 'the first page fetches no mesh');
  await pick(page, 'unitree_go2');
  assert.equal(meshes.length, 15, `its 15 meshes fetched on opening: ${meshes.join(' ')}`);
  assert.ok(meshes.every((u) => /\/wasm\/dist\/models\/unitree_go2\/assets\/[a-z_0-9]+\.obj$/.test(u)), meshes.join(' '));
  await page.waitForFunction(() => window.playground.meshPixels() !== null, null, WAIT);
  const px = await page.evaluate(() => window.playground.meshPixels());
  await page.screenshot({ path: join(shots, 'unitree_go2-gallery.png') });
  assert.ok(px.modelFraction > 0.01, `the meshes cover ${px.modelFraction} of the view`);
  await playBriefly(page);
  assert.deepEqual(errors, []);
  await context.close();
});
