// xml.mjs — XML text to a small element tree with line and column numbers
// (saxes, a non-validating XML 1.0 parser), and the attribute readers both
// importers share.  Every error is an ImportError whose message names the
// file, the line and column, and the element.

import { SaxesParser } from 'saxes';

import { ImportError } from './error.mjs';

/**
 * @typedef {{ name: string, attrs: Record<string, string>, children: XmlElement[], line: number,
 *   column: number, parent: XmlElement | null }} XmlElement
 */

/**
 * Parse XML text into its root element.
 * @param {string} text @param {string} file the name error messages show
 * @returns {XmlElement}
 */
export function parseXml(text, file) {
  if (typeof text !== 'string') throw new ImportError(`${file}: the model text must be a string`);
  const parser = new SaxesParser({ position: true });
  let root = null;
  const stack = [];
  let start = { line: 1, column: 1 };
  let failure = null;
  parser.on('error', (e) => {
    // saxes prefixes "line:column: "; keep its place, name our file.
    const m = /^(\d+):(\d+): (.*)$/s.exec(e.message);
    failure ??= m
      ? new ImportError(`${file}:${m[1]}:${m[2]}: malformed XML: ${m[3]}`, Number(m[1]), Number(m[2]))
      : new ImportError(`${file}: malformed XML: ${e.message}`);
    throw failure;
  });
  parser.on('opentagstart', (tag) => {
    start = { line: parser.line, column: Math.max(1, parser.column - tag.name.length - 1) }; // at the "<"
  });
  parser.on('opentag', (tag) => {
    const parent = stack.length ? stack[stack.length - 1] : null;
    const attrs = Object.create(null);
    for (const [k, v] of Object.entries(tag.attributes)) attrs[k] = typeof v === 'string' ? v : v.value;
    const el = { name: tag.name, attrs, children: [], line: start.line, column: start.column, parent };
    if (parent) parent.children.push(el);
    else root ??= el;
    if (!tag.isSelfClosing) stack.push(el);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw failure ?? new ImportError(`${file}: malformed XML: ${e?.message ?? String(e)}`);
  }
  if (!root) throw new ImportError(`${file}: no root element`);
  return root;
}

/** `<name attr="value">` as messages show an element: its tag and its name attribute, if any. */
export function tagOf(el) {
  return el.attrs.name !== undefined ? `<${el.name} name="${el.attrs.name}">` : `<${el.name}>`;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Readers of one file's attributes: each error names the file (an element's own `file` when it came from another,
 * as included MJCF does), the element's place, the element and the attribute.
 * @param {string} file
 */
export function readers(file) {
  const fail = (el, what) => new ImportError(`${el.file ?? file}:${el.line}:${el.column}: ${tagOf(el)}: ${what}`, el.line, el.column);

  /** The numbers of an attribute value (whitespace separated). */
  function numbers(el, key, value, count) {
    const words = value.trim().split(/\s+/).filter((w) => w.length);
    const out = words.map((w) => {
      if (!DECIMAL.test(w)) throw fail(el, `bad number '${w.slice(0, 40)}' in ${key}="${value.slice(0, 80)}"`);
      const x = Number(w);
      if (!Number.isFinite(x)) throw fail(el, `non-finite number '${w.slice(0, 40)}' in ${key}`);
      return x;
    });
    if (count !== undefined && !(Array.isArray(count) ? count.includes(out.length) : out.length === count)) {
      const want = Array.isArray(count) ? count.join(' or ') : count;
      throw fail(el, `${key}="${value.slice(0, 80)}" has ${out.length} number${out.length === 1 ? '' : 's'}, expected ${want}`);
    }
    return out;
  }

  return {
    fail,
    /** The numbers of attribute `key` of `el` (or of `attrs` when given), or `fallback` when absent. */
    vec(el, key, count, fallback, attrs = el.attrs) {
      const v = attrs[key];
      if (v === undefined) return fallback;
      return numbers(el, key, v, count);
    },
    num(el, key, fallback, attrs = el.attrs) {
      const v = attrs[key];
      if (v === undefined) return fallback;
      return numbers(el, key, v, 1)[0];
    },
  };
}
