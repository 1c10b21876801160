// vite.config.js — the playground's dev server and static build.
//
// The page lives in web/. The WebAssembly shim (wasm/index.mjs) and what it loads (wasm/dist/: the .wasm
// modules, the model manifest and the shipped .mech texts, made by scripts/build-wasm.sh) are not bundled:
// the shim finds its files relative to itself, exactly as under Node, so the page keeps the repository's
// layout for wasm/ — served as-is in development, copied verbatim into dist/wasm/ by the build.
// The worker then imports '../wasm/index.mjs' relative to its own URL, which resolves both in dev
// (/src/worker.js) and in the build (assets/worker-*.js).
import { defineConfig } from 'vite';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = dirname(fileURLToPath(import.meta.url));
const repo = resolve(web, '..');

// Repository directories mirrored into the site, and the file types taken from them: the shim and its modules,
// and the docs the help links to.
const MIRRORED = ['wasm', 'docs'];
const TYPES = {
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.mech': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.obj': 'text/plain; charset=utf-8',
  '.stl': 'application/octet-stream',
};

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (TYPES[extname(name)]) yield path;
  }
}

// Maps a request path to a mirrored file, or null (also for anything escaping the mirrored directories).
function mirroredFile(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0]).replace(/^\/+/, '');
  } catch {
    return null;
  }
  const file = resolve(repo, rel);
  const inside = MIRRORED.some((d) => file.startsWith(resolve(repo, d) + sep));
  if (!inside || !TYPES[extname(file)] || !existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

function mirrorRepoDirs() {
  return {
    name: 'mech-mirror-repo-dirs',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const base = server.config.base.replace(/\/$/, '');
        const path = req.url.startsWith(base) ? req.url.slice(base.length) : req.url;
        const file = mirroredFile(path);
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[extname(file)]);
        res.setHeader('Cache-Control', 'no-cache');
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const d of MIRRORED) {
        for (const file of walk(resolve(repo, d))) {
          this.emitFile({ type: 'asset', fileName: relative(repo, file).split(sep).join('/'), source: readFileSync(file) });
        }
      }
    },
  };
}

export default defineConfig({
  root: web,
  base: './',
  publicDir: false,
  plugins: [mirrorRepoDirs()],
  worker: { format: 'es' },
  // Pre-bundled at startup, so a first visit never triggers Vite's reload for newly found dependencies (the
  // lazily loaded ones too: a zip drop's unzip, the mesh simplifier), into this checkout's own build folder.
  cacheDir: resolve(repo, 'build/vite'),
  optimizeDeps: {
    include: ['three', 'three/addons/controls/OrbitControls.js', 'codemirror', '@codemirror/view', '@codemirror/state',
      '@codemirror/language', '@codemirror/lint', '@lezer/highlight', 'lil-gui', 'uplot', 'lz-string', 'fflate',
      'meshoptimizer/simplifier'],
  },
  server: { host: '127.0.0.1', strictPort: false },
  preview: { host: '127.0.0.1' },
  build: {
    outDir: resolve(repo, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { checks: { bundlerTimings: false } }, // slow-machine timing notes are not warnings
  },
});
