// mech-lang.js — syntax colouring for .mech text. Tokens only (comment, keyword, number, word, colour):
// the language itself is parsed by the one C parser, in WebAssembly, never here.
import { StreamLanguage, HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?=[\s#]|$)/;
const HEX = /^#[0-9a-fA-F]{3,8}(?=\s|$)/;
const WORD = /^[^\s#]+/;

export const mechLanguage = StreamLanguage.define({
  name: 'mech',
  startState: () => ({ first: true, afterColor: false, prose: false }),
  token(stream, state) {
    if (stream.sol()) {
      state.first = true;
      state.afterColor = false;
      state.prose = false;
    }
    if (stream.eatSpace()) return null;
    if (state.prose && stream.match(/^[^#]+/)) return 'string'; // a description is free text up to a comment
    const afterColor = state.afterColor;
    state.afterColor = false;
    // `#` starts a comment, except for the value right after `color` (`color #ff8000`).
    if (afterColor && stream.match(HEX)) return 'atom';
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(NUMBER)) return 'number';
    const word = stream.match(WORD)[0];
    state.afterColor = word === 'color';
    if (state.first) {
      state.first = false;
      state.prose = word === 'description';
      return 'keyword';
    }
    return /^[a-z_][a-z0-9_]*$/.test(word) ? 'propertyName' : 'variableName';
  },
  languageData: { commentTokens: { line: '#' } },
});

export const mechHighlight = HighlightStyle.define([
  { tag: t.comment, color: '#6b7a8f', fontStyle: 'italic' },
  { tag: t.keyword, color: '#c792ea', fontWeight: '600' },
  { tag: t.number, color: '#f78c6c' },
  { tag: t.propertyName, color: '#82aaff' },
  { tag: t.variableName, color: '#d6deeb' },
  { tag: t.atom, color: '#c3e88d' },
  { tag: t.string, color: '#ecc48d' },
]);
