// robot-meshes.test.mjs — published robots with their mesh files dropped on the playground (headless chromium,
// software WebGL): the Unitree Go2 (scene.xml including go2.xml, OBJ meshes, one of them missing) and the Shadow Hand
// (scene_right.xml including right_hand.xml) open with their meshes drawn, covering part of the view, and run;
// screenshots in build/screenshots/. Optional: it reads the shared robot folders (MECH_ROBOTS, else a
// 'shared/data/robots' beside the clone or the folder holding it) and skips when they are absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { WAIT, openPage, playBriefly, repo, shots, status, usePlayground } from './harness.mjs';

const shared = process.env.MECH_ROBOTS
  ?? [join(repo, '../shared/data/robots'), join(repo, '../../shared/data/robots')].find((d) => existsSync(d)) ?? '';
const here = existsSync(join(shared, 'unitree_go2/scene.xml')) && existsSync(join(shared, 'shadow_hand/scene_right.xml'));
const skip = !here && 'the shared robot folders are not here';

const pg = here ? usePlayground(5683) : null;

/** A robot folder's model files and meshes dropped at once (flat: the page finds meshes by base name). */
async function dropFolder(page, dir, names) {
  const files = [...names, ...readdirSync(join(dir, 'assets')).map((f) => `assets/${f}`)];
  await page.route('**/__robot__/**', (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/__robot__\//, ''));
    route.fulfill({ body: readFileSync(join(dir, path)) });
  });
  const before = (await status(page)).drops;
  await page.evaluate(async (list) => {
    const data = new DataTransfer();
    for (const path of list) {
      const bytes = await (await fetch(`/__robot__/${encodeURIComponent(path).replace(/%2F/g, '/')}`)).arrayBuffer();
      data.items.add(new File([bytes], path.replace(/^.*\//, '')));
    }
    document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
  await page.waitForFunction((n) => window.playground.status().drops > n, before, { timeout: 120_000 });
}

for (const [label, folder, names, model, meshWarning] of [
  ['the Unitree Go2', 'unitree_go2', ['scene.xml', 'go2.xml'], 'scene', /mesh 'base_4': the file 'assets\/base_4\.obj' is not among the files given/],
  ['the Shadow Hand', 'shadow_hand', ['scene_right.xml', 'right_hand.xml'], 'scene_right', null],
]) {
  test(`${label} dropped with its meshes looks like itself (meshes drawn) and runs`, { skip }, async () => {
    const { page, context, errors } = await openPage(pg.browser, pg.base);
    await page.waitForFunction(() => window.playground.status().loaded, null, WAIT);
    await dropFolder(page, join(shared, folder), names);
    const s = await status(page);
    assert.equal(s.model, model, s.banner ?? '');
    const text = await page.evaluate(() => window.playground.editorText());
    if (meshWarning) assert.match(text, meshWarning);
    await page.waitForFunction(() => window.playground.meshPixels() !== null, null, WAIT);
    const px = await page.evaluate(() => window.playground.meshPixels());
    await page.screenshot({ path: join(shots, `${folder}-meshes.png`) });
    assert.ok(px.modelFraction > 0.01, `${label}: the meshes cover ${px.modelFraction} of the view`);
    await playBriefly(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
