// index.mjs — MJCF and URDF to .mech text (docs/import.md).  Plain ES
// modules with one dependency (saxes, the XML parser): used by
// wasm/index.mjs's importModel, the playground and scripts/import.mjs.
//
//   import { importModel } from './wasm/import/index.mjs';
//   const { text, warnings } = importModel(xml, { format: 'mjcf', name: 'panda.xml' });

import { Namer, emit, lower } from './emit.mjs';
import { excludePairs as excludePairsOf } from './emit_contact.mjs';
import { readMjcf } from './mjcf.mjs';
import { lowerActuation } from './mjcf_actuators.mjs';
import { bindTendons, lowerTendons } from './mjcf_tendons.mjs';
import { readUrdf } from './urdf.mjs';
import { ImportError } from './error.mjs';
import { readers } from './xml.mjs';
import { fileSet } from './files.mjs';

export { ImportError };
// Meshes for whoever needs their geometry (the contact work's colliders): a file's triangles and its convex hull.
export { parseMesh, placeMesh } from './mesh.mjs';
export { convexHull } from './hull.mjs';

/**
 * The longest model text importModel reads, in characters: twice .mech's own limit (MECH_MAX_TEXT, 4 MiB), the
 * XML being the wordier of the two; a longer text is refused before it is parsed (the Menagerie's files are
 * a few hundred kilobytes at most).
 */
export const MAX_IMPORT_TEXT = 8 * 1024 * 1024;

/**
 * The format of a model file from its text: 'mjcf' when the root element is <mujoco>, 'urdf' when it is <robot>,
 * else null.
 * @param {string} text
 */
export function detectFormat(text) {
  const m = /<\s*(mujoco|robot)[\s>/]/.exec(String(text).replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''));
  return m ? (m[1] === 'mujoco' ? 'mjcf' : 'urdf') : null;
}

/**
 * MJCF or URDF text to .mech text.
 * @param {string} text
 * @param {{ format?: 'mjcf' | 'urdf', name?: string, files?: Record<string, string | Uint8Array> }} [options]
 *   format default: detected from the root element; name: the file name messages and the header show; files: the
 *   files the model names (MJCF <include>, meshes), by path relative to the model file's folder
 * @returns {{ text: string, warnings: string[] }}
 * @throws {ImportError} naming the file, line, column and element for anything it cannot import
 */
export function importModel(text, options = {}) {
  if (typeof text !== 'string') throw new ImportError('importModel: the model text must be a string');
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new ImportError("importModel: options must be an object such as { format: 'urdf' }");
  }
  const unknown = Object.keys(options ?? {}).find((k) => !['format', 'name', 'files'].includes(k));
  if (unknown !== undefined) throw new ImportError(`importModel: unknown option '${unknown}'; the options are format, name and files`);
  const files = fileSet(options?.files);
  const file = options?.name ?? 'model';
  if (typeof file !== 'string') throw new ImportError('importModel: name must be a string');
  if (text.length > MAX_IMPORT_TEXT) {
    throw new ImportError(`${file}: the model text is ${text.length} characters, more than importModel reads (at most ${MAX_IMPORT_TEXT}, 8 MiB)`);
  }
  const format = options?.format ?? detectFormat(text);
  if (format !== 'mjcf' && format !== 'urdf') {
    throw new ImportError(`importModel: format must be 'mjcf' or 'urdf'${options?.format === undefined ? ` (${file} has neither a <mujoco> nor a <robot> root)` : `, got '${String(format)}'`}`);
  }
  const src = format === 'mjcf' ? readMjcf(text, { file, files }) : readUrdf(text, { file, files });
  const { fail } = readers(file);
  const warnings = [...src.warnings];
  const lowered = lower(src.nodes, { warn: (w) => warnings.push(w), fail, format });
  for (const b of lowered.bodies) {
    if (b.merged.length && format === 'urdf') warnings.push(`link${b.merged.length === 1 ? '' : 's'} ${b.merged.map((n) => `'${n}'`).join(', ')} welded into '${b.source}' by fixed joints`);
  }
  const warn = (w) => warnings.push(w);
  const coupled = lowerTendons(src, lowered, { warn, fail, names: (kind) => new Namer(warn, kind) });
  const actuation = lowerActuation(src, lowered.bodies, { warn, fail, names: new Namer(warn, 'actuator or keyframe') });
  bindTendons(actuation.actuators, coupled.tendons, { warn, fail });
  const excludePairs = src.contact ? excludePairsOf({ ...lowered, excludes: src.excludes, statics: src.statics, fail, warn }) : [];
  const out = emit({ format, file, model: src.model, gravity: src.gravity, integrator: src.integrator, warnings, ...lowered, ...actuation, ...coupled, contact: src.contact, statics: src.statics, excludePairs });
  return { text: out, warnings };
}
