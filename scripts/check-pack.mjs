// check-pack.mjs — npm pack's prepack step: the package ships the WebAssembly modules, manifests and model texts
// of wasm/dist/, which are build outputs, not sources; refuse to pack without them.
import { existsSync, readFileSync } from 'node:fs';

const dist = new URL('../wasm/dist/', import.meta.url);
const manifest = new URL('models.json', dist);
if (!existsSync(manifest) || !existsSync(new URL('runtime.wasm', dist))) {
  console.error('npm pack: wasm/dist/ is missing or incomplete: run `npm run build` first');
  process.exit(1);
}
const missing = JSON.parse(readFileSync(manifest, 'utf8'))
  .filter((m) => m.backend === 'generated' && !m.module && !existsSync(new URL(`${m.name}.wasm`, dist)))
  .map((m) => `${m.name}.wasm`);
if (missing.length) {
  console.error(`npm pack: wasm/dist/ lacks ${missing.join(', ')}: run \`npm run build\` first`);
  process.exit(1);
}
