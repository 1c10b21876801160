// files.mjs — the files a model names (meshes, included XML), given to
// importModel as { 'relative/path': string | Uint8Array }: paths relative to
// the model file's folder, looked up the way MuJoCo resolves them (a
// compiler meshdir or assetdir in front of a mesh's file; '/' or '\' as
// separators, '.' and '..' segments resolved).  A file given without a folder
// is also found by its base name, when no other file has it.

import { ImportError } from './xml.mjs';

/** A relative path with '.' and '..' resolved and '/' separators; null when it climbs above its root. */
export function normalizePath(path) {
  const out = [];
  for (const part of String(path).replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) return null;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out.join('/');
}

/** `dir` joined with `file` (a file with a leading '/' is taken from the root of the set). */
export function joinPath(dir, file) {
  return normalizePath(file.startsWith('/') ? file : `${dir ?? ''}/${file}`);
}

/** The folder part of a path ('' for a bare name). */
export function dirOf(path) {
  const n = normalizePath(path) ?? '';
  const i = n.lastIndexOf('/');
  return i < 0 ? '' : n.slice(0, i);
}

/**
 * The set of files an import may read.
 * @param {unknown} files the importModel option
 * @returns {{ get: (path: string) => string | Uint8Array | undefined, size: number }}
 */
export function fileSet(files) {
  if (files === undefined || files === null) return { get: () => undefined, size: 0 };
  if (typeof files !== 'object' || Array.isArray(files)) throw new ImportError("importModel: files must be an object such as { 'assets/link.stl': bytes }");
  const map = new Map();
  for (const [key, value] of Object.entries(files)) {
    if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
      throw new ImportError(`importModel: files['${key}'] must be a string or a Uint8Array`);
    }
    const k = normalizePath(key);
    if (k === null || k === '') throw new ImportError(`importModel: files['${key}']: not a path inside the model's folder`);
    map.set(k, value);
  }
  // Files given without a folder (several files dropped at once) are also found by their base name.
  const flat = new Map();
  for (const k of map.keys()) if (!k.includes('/')) flat.set(k, flat.has(k) ? null : k);
  const get = (path) => {
    const k = path === null ? null : normalizePath(path);
    if (k === null) return undefined;
    return map.get(k) ?? map.get(flat.get(k.replace(/^.*\//, '')) ?? '');
  };
  return { get, size: map.size };
}
