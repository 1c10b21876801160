// The packages as someone else gets them, each in a fresh temporary folder with no network: the npm tarball
// (`npm pack`) installed into a new project, running the README's Node example and the README's Vite app built by
// Vite and opened in Chromium; the C library installed by `cmake --install` into a prefix, building and running
// the README's demo.c with pkg-config and with find_package(mech). The programs are read from README.md, so the
// README shows exactly what is tested. Needs the full build (build/, wasm/dist/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'mech-package-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The README's fenced block whose first line starts with `firstLine`. */
function readmeBlock(firstLine) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const found = blocks.filter((b) => b.startsWith(firstLine));
  assert.equal(found.length, 1, `README.md has one block starting '${firstLine}'`);
  return found[0];
}

/** Runs a program with the network out of reach for npm (offline) and returns its standard output. */
function run(file, args, cwd, env = {}) {
  return execFileSync(file, args, {
    cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...env },
  });
}

/** threelink after the README's second: q as the README's Vite app prints it. */
async function threelinkLine() {
  const sim = await openModel('threelink');
  sim.step(1e-3, 1000);
  const line = `q = ${Array.from(sim.q, (x) => x.toFixed(6)).join(' ')}`;
  sim.dispose();
  return line;
}

test('npm pack: the tarball installs offline into a fresh project and runs the README example in Node', async () => {
  const tarball = run('npm', ['pack', '--silent', '--pack-destination', dir], root).trim().split('\n').pop();
  const files = run('tar', ['tzf', join(dir, tarball)], dir).split('\n');
  for (const f of ['package/wasm/index.mjs', 'package/wasm/index.d.ts', 'package/wasm/dist/runtime.wasm',
    'package/wasm/dist/threelink.wasm', 'package/wasm/dist/models.json', 'package/wasm/dist/models/threelink.mech',
    'package/node_modules/saxes/package.json']) {
    assert.ok(files.includes(f), `the tarball holds ${f}`);
  }
  assert.ok(!files.some((f) => f.startsWith('package/core/') || f.startsWith('package/web/')), 'sources stay out');

  const app = join(dir, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--no-package-lock', join(dir, tarball)], app);

  writeFileSync(join(app, 'demo.mjs'), readmeBlock('// demo.mjs'));
  const out = run(process.execPath, ['demo.mjs'], app);
  assert.match(out, /'threelink'/, 'listModels names the shipped models');
  assert.match(out, /kinetic: \d/, 'the energy after one second');

  // The types resolve through the package's exports.
  writeFileSync(join(app, 'check.ts'), "import { openModel, type Sim } from 'mech';\n"
    + "const sim: Sim = await openModel('threelink');\nconst q: Float64Array = sim.q;\nexport { q };\n");
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
      lib: ['es2022', 'dom'], types: [] }, files: ['check.ts'] }));
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);

  // The README's Vite app, built by this repository's Vite (no network), served and opened in Chromium.
  writeFileSync(join(app, 'src/main.js'), readmeBlock('// src/main.js'));
  writeFileSync(join(app, 'index.html'), '<!doctype html>\n<html><head><meta charset="utf-8"><title>app</title></head>'
    + '<body><pre id="out"></pre><script type="module" src="/src/main.js"></script></body></html>\n');
  run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], app);
  const assets = run('ls', [join(app, 'dist/assets')], app);
  assert.match(assets, /^threelink-.*\.wasm$/m, 'vite build copied the modules it found through import.meta.url');

  const { preview } = await import('vite');
  const { chromium } = await import('playwright-core');
  const server = await preview({ root: app, logLevel: 'silent', preview: { host: '127.0.0.1', port: 4600 } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.resolvedUrls.local[0]);
    await page.locator('#out', { hasText: 'q = ' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(errors, []);
    assert.equal(await page.textContent('#out'), await threelinkLine(), 'the page steps threelink as Node does');
  } finally {
    await browser.close();
    await server.close();
  }
});

test('cmake --install: the README demo.c builds against the installed library with pkg-config and find_package', () => {
  const prefix = join(dir, 'prefix');
  run('cmake', ['--install', join(root, 'build'), '--prefix', prefix], root);
  for (const f of ['include/mech/mech.h', 'lib/libmech.a', 'lib/cmake/mech/mechConfig.cmake', 'lib/pkgconfig/mech.pc']) {
    assert.ok(existsSync(join(prefix, f)), `installed ${f}`);
  }
  const demo = join(dir, 'demo');
  mkdirSync(demo);
  writeFileSync(join(demo, 'demo.c'), readmeBlock('/* demo.c'));
  const model = join(root, 'models/threelink.mech');

  // pkg-config, as the README's line.
  const pc = run('pkg-config', ['--cflags', '--libs', 'mech'], demo, { PKG_CONFIG_PATH: join(prefix, 'lib/pkgconfig') });
  const line = readmeBlock('cc demo.c').trim();
  assert.equal(line, 'cc demo.c $(pkg-config --cflags --libs mech) -o demo');
  run('cc', ['demo.c', ...pc.trim().split(/\s+/), '-o', 'demo'], demo);
  const byPkgConfig = run(join(demo, 'demo'), [model], demo);
  assert.match(byPkgConfig, /^t = 1 s, q0 = -?\d+\.\d{6}, kinetic \+ potential = -?\d+\.\d{6} J\n$/);

  // find_package(mech), with the README's CMakeLists.txt.
  writeFileSync(join(demo, 'CMakeLists.txt'), readmeBlock('# CMakeLists.txt'));
  const build = join(demo, 'build');
  run('cmake', ['-S', demo, '-B', build, `-DCMAKE_PREFIX_PATH=${prefix}`], demo);
  run('cmake', ['--build', build], demo);
  assert.equal(run(join(build, 'demo'), [model], demo), byPkgConfig, 'both builds print the same step');
});
