// mesh-drop.test.mjs — a robot folder as MuJoCo Menagerie lays one out (scene.xml including the robot's file,
// meshes under assets/, one of them missing) dropped on the playground as a folder (the walk of its
// FileSystemEntry tree, web/src/dropped-files.js) and as a zip (web/src/unzip.js): it opens with its meshes
// drawn — a screenshot of the view holds the mesh's own colour where the model is —, the missing mesh is named,
// a mesh over the drawing budget is drawn simplified while the importer's masses come from the file, and after a
// reload it reopens from its My models card with its meshes (web/src/model-store.js, IndexedDB), renamed too;
// deleting the card deletes its files. Among two root MJCF files, scene.xml is the model. A refused write to
// IndexedDB and a mesh file that gives no triangles are toasts. A dropped crate whose collider is its mesh rests
// on the floor (the page opens it with its files on the runtime engine and the jit). Then the first page view's download, from the
// built site (dist/), against the figure from before. Headless chromium, software WebGL; screenshots in
// build/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { preview } from 'vite';

import { WAIT, openPage, repo, shots, status, tilt, usePlayground } from './harness.mjs';
import { importModel } from '../../wasm/import/index.mjs';

const pg = usePlayground(6513);

const SCENE = `<mujoco model="toyarm scene">
  <include file="toyarm.xml"/>
  <option timestep="0.002"/>
</mujoco>
`;
// A link drawn from a box mesh (its mass inferred from it), a ball from a heavy sphere mesh (mass inferred too),
// and a hand whose mesh file is missing (its inertia given).
const ROBOT = `<mujoco model="toyarm">
  <compiler angle="radian" meshdir="assets"/>
  <asset>
    <mesh file="link.obj"/>
    <mesh file="ball.obj"/>
    <mesh file="hand.stl"/>
  </asset>
  <worldbody>
    <body name="link" pos="0 0 0.6">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="mesh" mesh="link" rgba="1 0 1 1"/>
      <body name="ball" pos="0 0 -0.3">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.1"/>
        <geom type="mesh" mesh="ball" rgba="0 0.8 0.8 1"/>
        <body name="hand" pos="0 0 -0.12">
          <joint name="wrist" type="hinge" axis="1 0 0" damping="0.1"/>
          <inertial pos="0 0 -0.03" mass="0.05" diaginertia="2e-5 2e-5 1e-5"/>
          <geom type="mesh" mesh="hand" rgba="0.9 0.9 0.1 1"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
`;

/** An axis-aligned box from `lo` to `hi` as OBJ, faces counter-clockwise seen from outside. */
function boxObj(lo, hi) {
  const v = [];
  for (let i = 0; i < 8; i++) v.push(`v ${i & 1 ? hi[0] : lo[0]} ${i & 2 ? hi[1] : lo[1]} ${i & 4 ? hi[2] : lo[2]}`);
  const faces = ['f 1 3 4 2', 'f 5 6 8 7', 'f 1 2 6 5', 'f 3 7 8 4', 'f 1 5 7 3', 'f 2 4 8 6'];
  return `# box\n${v.join('\n')}\n${faces.join('\n')}\n`;
}

/** A UV sphere of radius r about (0, 0, z) with `stacks` × `slices` quads split in two: 2·slices·(stacks − 1) triangles. */
function sphereObj(r, z, stacks, slices) {
  const lines = [`v 0 0 ${z + r}`];
  for (let i = 1; i < stacks; i++) {
    const t = (Math.PI * i) / stacks;
    for (let j = 0; j < slices; j++) {
      const p = (2 * Math.PI * j) / slices;
      lines.push(`v ${(r * Math.sin(t) * Math.cos(p)).toFixed(6)} ${(r * Math.sin(t) * Math.sin(p)).toFixed(6)} ${(z + r * Math.cos(t)).toFixed(6)}`);
    }
  }
  lines.push(`v 0 0 ${z - r}`);
  const at = (i, j) => 2 + (i - 1) * slices + (j % slices); // ring i (1 … stacks−1), 1-based
  const south = 2 + (stacks - 1) * slices;
  for (let j = 0; j < slices; j++) lines.push(`f 1 ${at(1, j)} ${at(1, j + 1)}`);
  for (let i = 1; i < stacks - 1; i++) {
    for (let j = 0; j < slices; j++) lines.push(`f ${at(i, j)} ${at(i + 1, j)} ${at(i + 1, j + 1)}`, `f ${at(i, j)} ${at(i + 1, j + 1)} ${at(i, j + 1)}`);
  }
  for (let j = 0; j < slices; j++) lines.push(`f ${south} ${at(stacks - 1, j + 1)} ${at(stacks - 1, j)}`);
  return `${lines.join('\n')}\n`;
}

const BALL_TRIANGLES = 2 * 160 * 99;
const FOLDER = {
  'toyarm/scene.xml': SCENE,
  'toyarm/scene_mjx.xml': '<mujoco model="toyarm mjx scene">\n  <include file="toyarm.xml"/>\n</mujoco>\n', // a second root: scene.xml wins
  'toyarm/toyarm.xml': ROBOT,
  'toyarm/assets/link.obj': boxObj([-0.04, -0.04, -0.3], [0.04, 0.04, 0]),
  'toyarm/assets/ball.obj': sphereObj(0.06, -0.02, 100, 160),
  'toyarm/LICENSE': 'a file the model does not name',
};
const MISSING = "mesh 'hand': the file 'assets/hand.stl' is not among the files given: its geoms are not drawn";

/**
 * Drops `folder` ({ 'dir/path': text }) on the view as a browser hands a dropped folder to the page: one item
 * whose webkitGetAsEntry() is the folder's DirectoryEntry (createReader().readEntries in batches, FileEntry.file).
 */
async function dropFolder(page, folder) {
  const before = (await status(page)).drops;
  await page.evaluate((files) => {
    const dir = (fullPath) => ({ isFile: false, isDirectory: true, fullPath, children: new Map() });
    const root = dir('');
    for (const [path, text] of Object.entries(files)) {
      const parts = path.split('/');
      let d = root;
      for (let i = 0; i < parts.length - 1; i++) {
        const full = `/${parts.slice(0, i + 1).join('/')}`;
        if (!d.children.has(parts[i])) d.children.set(parts[i], dir(full));
        d = d.children.get(parts[i]);
      }
      const file = new File([text], parts.at(-1));
      d.children.set(parts.at(-1), { isFile: true, isDirectory: false, fullPath: `/${path}`, file: (ok) => setTimeout(() => ok(file)) });
    }
    const reader = (d) => {
      const left = [...d.children.values()];
      return { readEntries: (ok) => setTimeout(() => ok(left.splice(0, 2))) }; // two per batch, as a long folder is read
    };
    const asEntry = (d) => Object.assign(d, d.isDirectory ? { createReader: () => reader(d) } : {});
    const walk = (d) => { asEntry(d); if (d.isDirectory) for (const c of d.children.values()) walk(c); };
    walk(root);
    const top = [...root.children.values()][0];
    const data = {
      types: ['Files'],
      files: [new File([], top.fullPath.slice(1))],
      items: [{ kind: 'file', webkitGetAsEntry: () => top }],
    };
    const event = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: data });
    document.getElementById('viewport').dispatchEvent(event);
  }, folder);
  await page.waitForFunction((n) => window.playground.status().drops > n, before, WAIT);
}

/** Drops one file `name` of `bytes` on the view, as a DataTransfer of that file. */
async function dropFile(page, name, bytes) {
  const before = (await status(page)).drops;
  await page.evaluate(([name, data]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(data)], name));
    document.getElementById('viewport').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, [name, [...bytes]]);
  await page.waitForFunction((n) => window.playground.status().drops > n, before, WAIT);
}

const loaded = (page, name) => page.waitForFunction((n) => {
  const s = window.playground.status();
  return s.loaded && s.model === n;
}, name, WAIT);

/**
 * From a screenshot of the view: the pixels of the box mesh's colour (magenta, lit: red and blue alike, green far
 * below them) inside the model's box on the screen (scene.js framing), and outside it.
 */
async function magentaPixels(page, shot) {
  const png = await page.locator('#viewport canvas[role="img"]').screenshot({ path: join(shots, shot) });
  const box = await page.evaluate(() => window.playground.framing());
  return page.evaluate(async ([b64, box]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const { data } = g.getImageData(0, 0, c.width, c.height);
    let inside = 0;
    let outside = 0;
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const [r, gr, bl] = data.subarray(4 * (y * c.width + x), 4 * (y * c.width + x) + 3);
        if (!(r > 60 && bl > 60 && Math.abs(r - bl) < 40 && gr < 0.5 * Math.min(r, bl))) continue;
        const u = x / c.width;
        const v = y / c.height;
        if (u >= box.left && u <= box.right && v >= box.top && v <= box.bottom) inside++;
        else outside++;
      }
    }
    return { inside, outside, total: c.width * c.height };
  }, [png.toString('base64'), box]);
}

/** The model is drawn with its meshes: the box's colour where the model is, the heavy ball simplified. */
async function assertMeshesDrawn(page, shot) {
  await page.waitForFunction(() => window.playground.meshTriangles().length === 2, null, WAIT);
  const triangles = await page.evaluate(() => window.playground.meshTriangles());
  assert.deepEqual(triangles.map((n) => n <= 20_000), [true, true], `triangles drawn: ${triangles}`);
  assert.ok(triangles.includes(12), `the box is drawn whole: ${triangles}`);
  assert.ok(Math.max(...triangles) > 2000, `the ball (${BALL_TRIANGLES} triangles) keeps its shape: ${triangles}`);
  const px = await magentaPixels(page, shot);
  assert.ok(px.inside > 300, `the box mesh's colour in the view where the model is: ${JSON.stringify(px)}`);
  assert.ok(px.outside < px.inside / 10, `and hardly anywhere else: ${JSON.stringify(px)}`);
}

const folderFiles = (prefix) => Object.fromEntries(Object.entries(FOLDER)
  .filter(([p]) => p.startsWith(prefix) && /\.(xml|obj|stl)$/.test(p) && p !== `${prefix}scene.xml`)
  .map(([p, text]) => [p.slice(prefix.length), text]));

for (const [how, dropIt] of [
  ['folder', (page) => dropFolder(page, FOLDER)],
  // As macOS's archiver makes it: a hidden copy of each file's metadata beside it, which is not a model.
  ['zip', (page) => dropFile(page, 'toyarm.zip', zipSync(Object.fromEntries(Object.entries(FOLDER).flatMap(([p, t]) => [
    [p, strToU8(t)], [`__MACOSX/${p.replace(/[^/]*$/, '._$&')}`, new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0])]])), { level: 6 }))],
]) {
  test(`a Menagerie-style ${how} opens with its meshes drawn, the missing one named, and reopens after a reload`, async () => {
    const { page, context, errors } = await openPage(pg.browser, pg.base);
    await loaded(page, 'threelink');
    await dropIt(page);
    const s = await status(page);
    assert.equal(s.model, 'scene', s.banner ?? '');
    assert.equal(s.banner, null);
    const text = await page.evaluate(() => window.playground.editorText());
    assert.ok(text.includes(MISSING), text.slice(0, 800));
    assert.match(s.lastToast, /^Imported with \d+ warnings?/);
    // The importer read the files themselves (the ball's mass from all its triangles), as Node does.
    const files = folderFiles('toyarm/');
    assert.equal(text, importModel(SCENE, { name: 'scene.xml', files }).text);
    await assertMeshesDrawn(page, `mesh-drop-${how}.png`);

    // Renamed, its files follow it; after a reload its card reopens it with its meshes.
    page.once('dialog', (d) => d.accept('toyarm'));
    await page.click('.card-rename[aria-label="Rename scene"]');
    await loaded(page, 'toyarm');
    await assertMeshesDrawn(page, `mesh-drop-${how}-renamed.png`);
    await page.reload();
    await page.waitForFunction(() => window.playground?.status().ready, null, WAIT);
    assert.deepEqual(await page.$$eval('.card[data-mine]', (c) => c.map((x) => x.dataset.model)), ['toyarm']);
    await page.click('.card[data-model="toyarm"]');
    await loaded(page, 'toyarm');
    await assertMeshesDrawn(page, `mesh-drop-${how}-reloaded.png`);

    // Deleting the card deletes its files.
    await page.click('.card-remove[aria-label="Delete toyarm"]');
    await page.waitForFunction(() => !document.querySelector('.card[data-model="toyarm"]'), null, WAIT);
    const kept = await page.evaluate(() => new Promise((ok, no) => {
      const req = indexedDB.open('mech');
      req.onsuccess = () => {
        const keys = req.result.transaction('model-files').objectStore('model-files').getAllKeys();
        keys.onsuccess = () => ok(keys.result);
        keys.onerror = () => no(keys.error);
      };
      req.onerror = () => no(req.error);
    }));
    assert.deepEqual(kept, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a folder whose files the browser refuses to keep opens all the same, and a toast says they were not kept', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  await page.evaluate(() => {
    IDBObjectStore.prototype.put = function put() {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await dropFolder(page, FOLDER);
  await loaded(page, 'scene');
  await page.waitForFunction(() => /were not kept/.test(window.playground.status().lastToast), null, WAIT);
  const s = await status(page);
  assert.match(s.lastToast, /(^| )The files of scene \([\d.]+ [kM]B\) were not kept for after a reload: the browser's storage for this page is full\. They stay until the page is closed\.$/);
  assert.equal(s.banner, null);
  await assertMeshesDrawn(page, 'mesh-drop-unkept.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a mesh file that gives no triangles is named in a toast, and the model opens without it', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  const junk = { ...FOLDER, 'toyarm/assets/link.obj': 'this is not a mesh\n' };
  junk['toyarm/toyarm.xml'] = ROBOT.replace('<geom type="mesh" mesh="link" rgba="1 0 1 1"/>',
    '<inertial mass="1" diaginertia="0.01 0.01 0.001"/><geom type="mesh" mesh="link" rgba="1 0 1 1"/>');
  await dropFolder(page, junk);
  await loaded(page, 'scene');
  const s = await status(page);
  assert.equal(s.banner, null);
  assert.match(s.lastToast, /^Not drawn: assets\/link\.obj \(no triangles read from it as OBJ or STL\)\. Imported with \d+ warnings?/);
  assert.equal((await page.evaluate(() => window.playground.meshTriangles())).length, 1, 'the ball alone is drawn from its mesh');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a dropped crate whose collider is its mesh comes to rest on the floor, on the runtime engine and then the jit', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  await dropFolder(page, {
    'crate/scene.xml': `<mujoco model="crate">
  <compiler meshdir="assets"/>
  <asset><mesh file="crate.obj"/></asset>
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body name="crate" pos="0 0 0.4"><freejoint/><geom type="mesh" mesh="crate" density="500"/></body>
  </worldbody>
</mujoco>
`,
    'crate/assets/crate.obj': boxObj([-0.15, -0.1, -0.1], [0.15, 0.1, 0.1]),
  });
  await loaded(page, 'scene');
  assert.equal((await status(page)).banner, null);
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().backend === 'jit' && window.playground.status().time > 1.5, null, WAIT);
  await page.click('#play');
  const s = await status(page);
  assert.equal(s.blown, false, s.banner ?? '');
  // Resting on its face: the centre 0.1 m up (the soft contact's depth below a millimetre), level.
  const z = s.q[6];
  assert.ok(z > 0.099 && z < 0.1 + 1e-6, `the crate's centre is at ${z} m: it does not rest on its mesh`);
  assert.ok(tilt(s.poses, 0) < 0.1, `tilted ${tilt(s.poses, 0)}°`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a dropped ROS package whose URDF names its meshes by package:// finds them beside its folder, drawn and colliding', async () => {
  const { page, context, errors } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  const mesh = '<mesh filename="package://crate_description/meshes/crate.obj"/>';
  await dropFolder(page, {
    'crate_description/urdf/crate.urdf': `<robot name="crate">
  <link name="world"/>
  <link name="crate">
    <inertial><mass value="6"/><inertia ixx="0.04" iyy="0.065" izz="0.065" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry>${mesh}</geometry><material name="magenta"><color rgba="1 0 1 1"/></material></visual>
    <collision><geometry>${mesh}</geometry></collision>
  </link>
  <joint name="free" type="floating"><parent link="world"/><child link="crate"/><origin xyz="0 0 0.4"/></joint>
</robot>
`,
    'crate_description/meshes/crate.obj': boxObj([-0.15, -0.1, -0.1], [0.15, 0.1, 0.1]),
  });
  await loaded(page, 'crate');
  assert.equal((await status(page)).banner, null);
  await page.waitForFunction(() => window.playground.meshTriangles().length > 0, null, WAIT);
  await page.click('#play');
  await page.waitForFunction(() => window.playground.status().time > 1.5, null, WAIT);
  await page.click('#play');
  const s = await status(page);
  assert.equal(s.blown, false, s.banner ?? '');
  // on the page's floor, which collides by default under a floating model with colliders
  assert.ok(s.q[6] > 0.099 && s.q[6] < 0.1 + 1e-6, `the crate's centre is at ${s.q[6]} m: it does not rest on its mesh`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a zip holding two models and no scene.xml is refused naming both', async () => {
  const { page, context } = await openPage(pg.browser, pg.base);
  await loaded(page, 'threelink');
  const two = zipSync({ 'hands/left.xml': strToU8('<mujoco/>'), 'hands/right.xml': strToU8('<mujoco/>') });
  await dropFile(page, 'hands.zip', two);
  const s = await status(page);
  assert.equal(s.model, 'threelink');
  assert.equal(s.banner, 'The drop was not opened: it holds 2 model files (hands/left.xml, hands/right.xml); drop one of them with the files it names.\nThe model shown keeps running.');
  await dropFile(page, 'broken.zip', strToU8('PK not really a zip'));
  assert.match((await status(page)).banner, /^broken\.zip was not opened: it is not a zip archive that reads \(.+\)\.\nThe model shown keeps running\.$/);
  await context.close();
});

// The first view of the built site (dist/, scripts/build.sh): every byte of response body (as served: Vite's
// preview server compresses) the page and its worker fetch until the first model is drawn and the network is idle.
// Measured on 2026-12-07 on the build from before dropped zips, IndexedDB and simplification were added: 15
// responses, 1 232 191 bytes (runtime.wasm 506 537, the page's script 347 121, threelink.wasm 344 354); with them
// 1 233 575. Meshes and the libraries loaded on a drop are not in it. MECH_DIST measures another build.
const FIRST_VIEW_BYTES = 1_232_191;
const LAZY = /unzip|mesh-simplify|fflate|meshopt|\.(obj|stl)(\?|$)/;
const dist = process.env.MECH_DIST ?? join(repo, 'dist');

test('the first page view downloads at most 1 MB more than before meshes could be dropped, none of it lazy', async () => {
  assert.ok(existsSync(join(dist, 'index.html')), `${dist}/index.html is missing: run scripts/build.sh`);
  const server = await preview({
    configFile: join(repo, 'web/vite.config.js'),
    preview: { host: '127.0.0.1', port: 6523, strictPort: false },
    build: { outDir: dist },
    logLevel: 'error',
  });
  try {
    const context = await pg.browser.newContext({ viewport: { width: 1600, height: 950 } });
    const page = await context.newPage();
    const fetched = [];
    page.on('requestfinished', (r) => fetched.push((async () => {
      const { responseBodySize } = await r.sizes();
      const text = /\.m?js$/.test(new URL(r.url()).pathname) ? await (await r.response()).text() : '';
      return { url: r.url(), bytes: responseBodySize, lazyCode: /meshopt_simplify|invalid zip data/.test(text) };
    })()));
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForFunction(() => window.playground?.status().ready && window.playground.status().loaded, null, WAIT);
    await page.waitForLoadState('networkidle');
    const list = await Promise.all(fetched);
    const bytes = list.reduce((n, f) => n + f.bytes, 0);
    console.log(`first view: ${list.length} responses, ${bytes} bytes of body (${dist})`);
    for (const f of [...list].sort((a, b) => b.bytes - a.bytes).slice(0, 8)) console.log(`  ${f.bytes}  ${f.url}`);
    assert.deepEqual(list.filter((f) => LAZY.test(f.url) || f.lazyCode).map((f) => f.url), []); // by name or by code
    assert.ok(bytes <= FIRST_VIEW_BYTES + 1e6, `the first view fetched ${bytes} bytes, ${bytes - FIRST_VIEW_BYTES} over ${FIRST_VIEW_BYTES}`);
    await context.close();
  } finally {
    await server.close();
  }
});
