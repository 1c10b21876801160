// helpers.mjs — shared by the Node suite: paths, the native reference
// helper (build/wasm/mech-wasm-ref, the same C compiled natively) and the
// error metric every gate in this project uses.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const modelsDir = `${root}models/`;
export const badDir = `${root}tests/bad/`;
const refTool = `${root}build/wasm/mech-wasm-ref`;

/** Every shipped model's name, from models/ (not from the manifest under test). */
export const modelNames = readdirSync(modelsDir)
  .filter((f) => f.endsWith('.mech'))
  .map((f) => f.slice(0, -'.mech'.length))
  .sort();

/** models/loops/: closed loops and force elements, shipped as text for the runtime engine. */
export const loopModelNames = readdirSync(`${modelsDir}loops`)
  .filter((f) => f.endsWith('.mech'))
  .map((f) => f.slice(0, -'.mech'.length))
  .sort();

/** Run the native helper; its stdout as JSON. */
export function nativeRef(...args) {
  if (!existsSync(refTool)) throw new Error(`${refTool} is missing: run \`npm run build\``);
  return JSON.parse(execFileSync(refTool, args.map(String), { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** max|a - b| / max(1, max|b|), as mech_scaled_error in core/sim/sample.h. */
export function scaledError(a, b) {
  let diff = 0;
  let scale = 1;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return Number.isNaN(diff) ? Infinity : diff / scale;
}
