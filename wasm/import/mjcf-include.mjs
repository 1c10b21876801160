// mjcf-include.mjs — MJCF <include file="..."/> (MuJoCo documentation, XML
// reference, "include"): the included file's <mujoco> element is replaced by
// its children at the place of the <include>, recursively; paths are relative
// to the main model file's folder.  A missing file or a cycle is an error
// naming the file and line of the <include>.

import { joinPath } from './path.mjs';
import { parseXml, readers } from './xml.mjs';

/** Mark every element of a tree with the file it came from (messages name it). */
function markFile(el, file) {
  el.file = file;
  for (const c of el.children) markFile(c, file);
}

/**
 * Replace the <include> elements under `root` by what they include.
 * @param {object} root the main file's root element @param {{ file: string, dir: string, files: object }} ctx
 */
export function expandIncludes(root, { file, dir, files }) {
  markFile(root, file);
  const expand = (el, chain) => {
    for (let i = 0; i < el.children.length; i++) {
      const c = el.children[i];
      if (c.name !== 'include') {
        expand(c, chain);
        continue;
      }
      const { fail } = readers(c.file);
      if (c.attrs.file === undefined) throw fail(c, 'needs a file attribute');
      const path = joinPath(dir, c.attrs.file);
      if (chain.includes(path)) throw fail(c, `includes '${c.attrs.file}' again: a cycle (${[...chain, path].join(' -> ')})`);
      const data = files.get(path);
      if (data === undefined) throw fail(c, `the included file '${path}' is not among the files given (importModel's files option)`);
      const text = typeof data === 'string' ? data : new TextDecoder('utf-8').decode(data);
      const sub = parseXml(text, path);
      markFile(sub, path);
      if (sub.name !== 'mujoco') throw readers(path).fail(sub, 'the root element of an included MJCF file is <mujoco>');
      expand(sub, [...chain, path]);
      for (const s of sub.children) s.parent = el;
      el.children.splice(i, 1, ...sub.children);
      i += sub.children.length - 1;
    }
  };
  expand(root, [file]);
}
