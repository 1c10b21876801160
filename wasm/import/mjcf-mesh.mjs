// mjcf-mesh.mjs — MJCF <asset><mesh> elements (MuJoCo documentation, XML
// reference, "mesh"): the file (under the compiler's meshdir, else assetdir),
// scale, refpos, refquat and inertia (legacy, exact, convex, shell), with
// <default> classes; each mesh read from importModel's files when a geom
// needs it.  A missing file is a warning naming it (the geoms using it are
// not drawn); a mass MuJoCo would infer from a missing file is an error.

import { ImportError } from './error.mjs';
import { joinPath } from './path.mjs';
import { convexHull } from './hull.mjs';
import { meshInertia, parseMesh, placeMesh } from './mesh.mjs';

const INERTIA_TYPES = ['legacy', 'exact', 'convex', 'shell'];

/**
 * The meshes of an MJCF model's <asset> sections.
 * @param {object[]} assets the <asset> elements
 * @param {{ attrsOf: (el: object) => Record<string, string>, vec: Function, fail: Function,
 *   files: { get: (path: string) => string | Uint8Array | undefined }, meshdir: string, warn: (w: string) => void }} ctx
 */
export function meshAssets(assets, { attrsOf, vec, fail, files, meshdir, warn }) {
  const meshes = new Map();
  const missing = []; // the files not given, in the order geoms first named them
  for (const a of assets) {
    for (const el of a.children) {
      if (el.name !== 'mesh') continue;
      const attrs = attrsOf(el);
      const file = attrs.file;
      const name = attrs.name ?? (file !== undefined ? file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') : undefined);
      if (name === undefined) throw fail(el, 'a mesh needs a name or a file');
      if (meshes.has(name)) throw fail(el, `mesh '${name}' is defined twice`);
      const inertia = attrs.inertia ?? 'legacy';
      if (!INERTIA_TYPES.includes(inertia)) throw fail(el, `inertia="${inertia}": expected ${INERTIA_TYPES.join(', ')}`);
      const scale = vec(el, 'scale', 3, [1, 1, 1], attrs);
      if (scale.some((s) => s === 0)) throw fail(el, `scale="${attrs.scale}" has a zero factor`);
      meshes.set(name, {
        name, el, inertia, scale,
        refpos: vec(el, 'refpos', 3, [0, 0, 0], attrs),
        refquat: vec(el, 'refquat', 4, [1, 0, 0, 0], attrs),
        path: file === undefined ? null : joinPath(meshdir, file),
        inline: file === undefined && attrs.vertex !== undefined
          ? { vertex: vec(el, 'vertex', undefined, null, attrs), face: vec(el, 'face', undefined, null, attrs) } : null,
        state: null, // 'missing' | { placed, props }
        hullOk: undefined, // collides(): whether its points span a hull (undefined until asked)
      });
    }
  }

  /**
   * A mesh given by its `vertex` and `face` attributes (MuJoCo: without faces, the vertices' convex hull), vertices
   * in single precision as MuJoCo stores them.
   */
  function inlineMesh(m) {
    const { vertex, face } = m.inline;
    if (vertex.length % 3 || vertex.length < 12) throw fail(m.el, `vertex has ${vertex.length} numbers: x y z of at least 4 vertices`);
    const vertices = Float64Array.from(vertex, Math.fround);
    if (face && (face.length % 3 || face.some((i) => !Number.isInteger(i) || i < 0 || i >= vertex.length / 3))) {
      throw fail(m.el, `face must be triples of vertex indices from 0 to ${vertex.length / 3 - 1}`);
    }
    let faces;
    try {
      faces = face ? Uint32Array.from(face) : convexHull(vertices).faces;
    } catch (e) {
      throw fail(m.el, e.message);
    }
    return { vertices, faces, ignoredFaces: 0 };
  }

  /** The mesh a geom names, read and placed once; null (after one warning) when its file is not given. */
  function load(m) {
    if (m.state === null) {
      const data = m.path === null ? undefined : files.get(m.path);
      if (m.inline) {
        const mesh = inlineMesh(m);
        m.state = { mesh, placed: placeMesh(mesh, m), props: null };
      } else if (data === undefined) {
        m.state = 'missing';
        if (m.path === null) warn(`mesh '${m.name}' has neither a file nor vertices: its geoms are not drawn`);
        else missing.push(m);
      } else {
        const mesh = parseMesh(data, m.path);
        if (mesh.ignoredFaces) warn(`${m.path}: ${mesh.ignoredFaces} faces after its first object ignored (MuJoCo reads an OBJ file's first object)`);
        m.state = { mesh, placed: placeMesh(mesh, m), props: null };
      }
    }
    return m.state === 'missing' ? null : m.state;
  }

  return {
    /** The warnings naming the mesh files not given (one, when no file was given at all), once all geoms are read. */
    finish() {
      if (missing.length && !files.size) {
        warn(`${missing.length} mesh file${missing.length === 1 ? '' : 's'} named and no files given (importModel's files option): their geoms are not drawn`);
        return;
      }
      for (const m of missing) warn(`mesh '${m.name}': the file '${m.path}' is not among the files given: its geoms are not drawn`);
    },
    /** The mesh named `name`, or undefined. */
    get: (name) => meshes.get(name),
    /**
     * Whether the mesh can collide through the convex hull of its file's points, as the engine builds it when the
     * model is opened with its files: false, after one warning naming the mesh and why, when the file does not
     * read or its points span no volume (its geoms are then written visual, and the model still opens).
     */
    collides(m) {
      if (m.hullOk === undefined) {
        try {
          const s = load(m);
          if (s) convexHull(s.mesh.vertices);
          m.hullOk = true;
        } catch (e) {
          if (!(e instanceof ImportError)) throw e;
          m.hullOk = false;
          warn(`mesh '${m.name}' cannot collide (${e.message}): its geoms are written visual`);
        }
      }
      return m.hullOk;
    },
    /** Whether the mesh's file was given (a warning names it when not); the file is read only for its mass. */
    present(m) {
      if (m.state === null && m.path !== null && files.get(m.path) !== undefined) return true;
      return m.path !== null && load(m) !== null;
    },
    /**
     * The mesh's volume (or area, for a shell), centre of mass and inertia per unit density, in the mesh's own
     * frame; null when its file is missing.
     */
    massProperties(m) {
      const s = load(m);
      if (!s) return null;
      try {
        s.props ??= meshInertia(s.placed, m.inertia, `mesh '${m.name}' ('${m.path}')`);
      } catch (e) {
        throw fail(m.el, e.message);
      }
      return s.props;
    },
  };
}
