// files.mjs — the files a model names (meshes, included XML), given to
// importModel as { 'relative/path': string | Uint8Array }: paths relative to
// the model file's folder, looked up the way MuJoCo resolves them (a
// compiler meshdir or assetdir in front of a mesh's file; '/' or '\' as
// separators, '.' and '..' segments resolved).  A file given without a folder
// is also found by its base name, when no other file has it.

import { filesByPath, normalizePath } from './path.mjs';
import { ImportError } from './error.mjs';

/**
 * The set of files an import may read.
 * @param {unknown} files the importModel option
 * @returns {{ get: (path: string) => string | Uint8Array | undefined, paths: string[], size: number }} paths: the
 *   files' paths, resolved
 */
export function fileSet(files) {
  if (files === undefined || files === null) return { get: () => undefined, paths: [], size: 0 };
  if (typeof files !== 'object' || Array.isArray(files)) throw new ImportError("importModel: files must be an object such as { 'assets/link.stl': bytes }");
  for (const [key, value] of Object.entries(files)) {
    if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
      throw new ImportError(`importModel: files['${key}'] must be a string or a Uint8Array`);
    }
    if (!normalizePath(key)) throw new ImportError(`importModel: files['${key}']: not a path inside the model's folder`);
  }
  return { get: filesByPath(files), paths: Object.keys(files).map(normalizePath), size: Object.keys(files).length };
}
