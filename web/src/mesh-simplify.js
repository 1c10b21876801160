// mesh-simplify.js — a heavy mesh made lighter for drawing with meshoptimizer's simplifier (its quadric-error
// edge collapse; loaded only when a model has such a mesh, so it is not part of the page's first download). The
// triangle soup the loaders give is welded by position first, so that the collapse sees a connected surface; the
// result is a soup again, for flat shading. Only the drawing is simplified: the importer computes mass
// properties and hulls from the files themselves.
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';

/** Relative error (of the mesh's extent) the simplifier may make; past it the sloppy pass reaches the budget. */
const TARGET_ERROR = 0.01;

/**
 * `positions` (x y z per vertex, three vertices per triangle) simplified to at most `budget` triangles, as a
 * triangle soup again.
 * @param {Float32Array} positions @param {number} budget @returns {Promise<Float32Array>}
 */
export async function simplifySoup(positions, budget) {
  await MeshoptSimplifier.ready;
  const indices = MeshoptSimplifier.generatePositionRemap(positions, 3); // each vertex -> the first at its place
  const target = 3 * budget;
  let [kept] = MeshoptSimplifier.simplify(indices, positions, 3, target, TARGET_ERROR, ['Prune']);
  // Borders and thin features can stop the collapse above the budget: then cluster by position.
  if (kept.length > target) [kept] = MeshoptSimplifier.simplifySloppy(indices, positions, 3, null, target, 1);
  const out = new Float32Array(3 * kept.length);
  for (let i = 0; i < kept.length; i++) out.set(positions.subarray(3 * kept[i], 3 * kept[i] + 3), 3 * i);
  return out;
}
