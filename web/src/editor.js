// editor.js — the .mech editor: CodeMirror 6 with colouring, parse errors as inline markers (parsed by the
// WebAssembly engine, debounced), and Ctrl/Cmd+Enter to reload the scene from the text.
import { basicSetup } from 'codemirror';
import { EditorView, Decoration, WidgetType, keymap } from '@codemirror/view';
import { EditorSelection, Prec, StateField } from '@codemirror/state';
import { syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, forEachDiagnostic, forceLinting, setDiagnosticsEffect } from '@codemirror/lint';
import { mechLanguage, mechHighlight } from './mech-lang.js';

const LINT_DELAY = 350; // ms after the last keystroke

const theme = EditorView.theme(
  {
    '&': { height: '100%', color: '#d6deeb', backgroundColor: 'var(--panel)', fontSize: '12.5px' },
    '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
    '.cm-content': { caretColor: '#ffcc66' },
    '.cm-cursor': { borderLeftColor: '#ffcc66' },
    '.cm-gutters': { backgroundColor: 'var(--panel)', color: '#4b5a6e', border: 'none' },
    '.cm-activeLine': { backgroundColor: '#ffffff08' },
    '.cm-activeLineGutter': { backgroundColor: '#ffffff0a', color: '#9fb0c6' },
    '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: '#3a4d6a !important' },
    '.cm-tooltip': { backgroundColor: '#1b2330', border: '1px solid #2c3a4e', color: '#d6deeb' },
    '.cm-diagnostic-error': { borderLeftColor: '#ff5370' },
    '.cm-inline-error': { color: '#ff5370', opacity: 0.85, marginLeft: '1.5em', fontStyle: 'italic', fontFamily: 'var(--sans)', fontSize: '11.5px' },
    '.cm-panels': { backgroundColor: '#1b2330', color: '#d6deeb' },
  },
  { dark: true },
);

// The error message shown at the end of its line, so it is readable without hovering.
class MessageWidget extends WidgetType {
  constructor(message) {
    super();
    this.message = message;
  }
  eq(other) {
    return other.message === this.message;
  }
  toDOM() {
    const span = document.createElement('span');
    span.className = 'cm-inline-error';
    span.textContent = this.message; // text, never HTML: the message quotes the (untrusted) model text
    return span;
  }
}

const inlineMessages = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setDiagnosticsEffect)) continue;
      const widgets = e.value
        .filter((d) => d.severity === 'error')
        .map((d) => Decoration.widget({ widget: new MessageWidget(d.message), side: 1 }).range(tr.state.doc.lineAt(d.from).to));
      deco = Decoration.set(widgets, true);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// Document range of an error at 1-based line:column: the word there, or a point at the end of a line.
function errorRange(doc, line, column) {
  if (!(line >= 1 && line <= doc.lines)) return { from: 0, to: Math.min(1, doc.length) };
  const l = doc.line(line);
  if (!(column >= 1)) return { from: l.from, to: l.to };
  const from = l.from + Math.min(column - 1, l.length);
  let to = from;
  while (to < l.to && !/\s/.test(doc.sliceString(to, to + 1))) to++;
  return { from, to };
}

/**
 * @param parent   element to mount in
 * @param check    async (text) => null | {message, line, column}
 * @param onChange (text) => void, for edits made by the user
 * @param onReload () => void, Ctrl/Cmd+Enter
 */
export function createEditor(parent, { check, onChange, onReload }) {
  let external = false;
  const lint = linter(
    async (view) => {
      const text = view.state.doc.toString();
      const err = await check(text);
      if (!err || view.state.doc.toString() !== text) return [];
      return [{ ...errorRange(view.state.doc, err.line, err.column), severity: 'error', message: err.message, source: `line ${err.line}, column ${err.column}` }];
    },
    { delay: LINT_DELAY },
  );
  const view = new EditorView({
    parent,
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', preventDefault: true, run: () => (onReload(), true) }])),
      basicSetup,
      mechLanguage,
      syntaxHighlighting(mechHighlight),
      theme,
      EditorView.lineWrapping,
      lint,
      lintGutter(),
      inlineMessages,
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !external) onChange(u.state.doc.toString());
      }),
    ],
  });

  return {
    view,
    get text() {
      return view.state.doc.toString();
    },
    /** Replaces the text without counting it as an edit. */
    setText(text) {
      external = true;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, scrollIntoView: true });
      external = false;
    },
    /** Puts the cursor on an error, scrolls to it and focuses the editor. */
    revealError({ line, column }) {
      const { from } = errorRange(view.state.doc, line, column);
      view.dispatch({ selection: EditorSelection.cursor(from), scrollIntoView: true });
      view.focus();
      forceLinting(view);
    },
    /** Error diagnostics currently shown, as [{line, column, message}]. */
    errors() {
      const out = [];
      forEachDiagnostic(view.state, (d, from) => {
        if (d.severity !== 'error') return;
        const l = view.state.doc.lineAt(from);
        out.push({ line: l.number, column: from - l.from + 1, message: d.message });
      });
      return out;
    },
  };
}
