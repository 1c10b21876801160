// path.mjs — relative paths as a model names its files (meshes, included XML), resolved the way MuJoCo
// resolves them: '/' or '\' as separators, '.' and '..' segments resolved.  No imports: the engine's API
// (mesh colliders' files) and the page (mesh drawing) use it without loading the importer.

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

/**
 * A lookup of `files` ({ path: data }) as a model's lines name them: by the path resolved, else, for a file given
 * without a folder (several files dropped at once), by its base name.  A key that climbs above the root is never
 * found.
 * @template T @param {Record<string, T> | undefined} files @returns {(path: string | null) => T | undefined}
 */
export function filesByPath(files) {
  const map = new Map();
  for (const [key, value] of Object.entries(files ?? {})) {
    const k = normalizePath(key);
    if (k) map.set(k, value);
  }
  return (path) => {
    const k = path === null ? null : normalizePath(path);
    return k === null ? undefined : map.get(k) ?? map.get(k.replace(/^.*\//, ''));
  };
}
