// error.mjs — the importer's error, in a module of its own with no imports: the mesh reader and the hull
// (mesh.mjs, hull.mjs), which the engine's API loads for mesh colliders, throw it without loading the XML parser.

/** An MJCF or URDF file the importer cannot turn into .mech: `message` is `file:line:col: what`. */
export class ImportError extends Error {
  /** @param {string} message @param {number} [line] @param {number} [column] */
  constructor(message, line = 0, column = 0) {
    super(message);
    this.name = 'ImportError';
    /** 1-based line of the element at fault, 0 when it has no place. */
    this.line = line;
    /** 1-based column, 0 when it has no place. */
    this.column = column;
  }
}
