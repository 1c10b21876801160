// The importer's errors: malformed XML, joint types .mech cannot express, bodies without mass, URDF links
// that do not form a tree.  Each is an ImportError whose message names the file, the line and column, and the
// element; each case below gives the exact message.  Then a fuzz run over the shipped sources.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { ImportError, MAX_IMPORT_TEXT, importModel } from '../../wasm/import/index.mjs';
import { importModel as importModelApi, openModel } from '../../wasm/index.mjs';
import { root } from './helpers.mjs';

const body = (inner) => `<mujoco><worldbody><body name="a">${inner}</body></worldbody></mujoco>`;
const inertial = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial>';
const link = (name, withInertial = true) => `<link name="${name}">${withInertial ? inertial : ''}</link>`;
const joint = (name, type, parent, child) => `<joint name="${name}" type="${type}"><parent link="${parent}"/><child link="${child}"/></joint>`;
const robot = (...parts) => `<robot name="r">\n${parts.join('\n')}\n</robot>`;

const CASES = [
  ['malformed MJCF', 'mjcf', '<mujoco><worldbody><body name="a"></worldbody></mujoco>',
    'm.xml:1:46: malformed XML: unexpected close tag.'],
  ['not XML', 'urdf', 'robot',
    'm.xml:1:5: malformed XML: text data outside of root node.'],
  ['empty text', 'mjcf', '',
    'm.xml:1:0: malformed XML: document must contain a root element.'],
  ['MJCF ball joint with a negative armature', 'mjcf', body('\n<joint name="j" type="ball" armature="-1"/><geom size="0.1"/>'),
    "m.xml:2:1: <joint name=\"j\">: joint 'j': negative armature -1"],
  ['MJCF unknown joint type', 'mjcf', body('<joint name="j" type="spiral"/><geom size="0.1"/>'),
    "m.xml:1:35: <joint name=\"j\">: joint 'j': unknown joint type 'spiral' (MJCF: free, ball, slide, hinge)"],
  ['MJCF two joints in one body', 'mjcf', body('<joint name="j1"/><joint name="j2"/><geom size="0.1"/>'),
    "m.xml:1:53: <joint name=\"j2\">: body 'a' has 2 joints ('j1', 'j2'): a .mech body carries one joint, and the usual chain of massless bodies cannot be written (.mech bodies need mass > 0); split the body or merge the joints"],
  ['MJCF body without mass', 'mjcf', body('<joint name="j"/>'),
    "m.xml:1:20: <body name=\"a\">: 'a' has no mass (no <inertial> and no geoms); a .mech body needs mass > 0 to carry its revolute joint"],
  ['MJCF inertiafromgeom false', 'mjcf', '<mujoco><compiler inertiafromgeom="false"/><worldbody><body name="a"><joint/><geom size="1"/></body></worldbody></mujoco>',
    "m.xml:1:55: <body name=\"a\">: 'a' has no mass (no <inertial>, and compiler inertiafromgeom=\"false\"); a .mech body needs mass > 0 to carry its revolute joint"],
  ['MJCF unknown mesh', 'mjcf', body('<joint/><geom type="mesh" mesh="m"/>'),
    "m.xml:1:43: <geom>: unknown mesh 'm'"],
  ['MJCF mass from a mesh file not given', 'mjcf', `<mujoco><asset><mesh file="m.stl"/></asset>${body('<joint/><geom type="mesh" mesh="m"/>').slice('<mujoco>'.length)}`,
    "m.xml:1:78: <geom>: the geom of body 'a' has mass MuJoCo would infer from mesh 'm', whose file 'm.stl' is not among the files given"],
  ['MJCF inertial without inertia', 'mjcf', body('<joint/><inertial mass="1" pos="0 0 0"/>'),
    'm.xml:1:43: <inertial>: needs diaginertia or fullinertia'],
  ['MJCF nested free joint', 'mjcf', body('<joint/><geom size="1"/><body name="b"><freejoint/><geom size="1"/></body>'),
    "m.xml:1:74: <freejoint>: the MJCF free joint needs its body attached to the world, but 'b' hangs from 'a' (.mech: a floating body's parent is base)"],
  ['MJCF unknown class', 'mjcf', body('<joint class="arm"/><geom size="1"/>'),
    "m.xml:1:35: <joint>: unknown default class 'arm'"],
  ['MJCF bad number', 'mjcf', body('<joint axis="0 0 one"/><geom size="1"/>'),
    'm.xml:1:35: <joint>: bad number \'one\' in axis="0 0 one"'],
  ['URDF cycle', 'urdf', robot(link('a'), link('b'), joint('j1', 'revolute', 'a', 'b'), joint('j2', 'revolute', 'b', 'a')),
    'm.xml:5:1: <joint name="j2">: the joints form a cycle: a -> b -> a (URDF describes a tree)'],
  ['URDF cycle beside a tree', 'urdf', robot(link('r'), link('b'), link('c'), joint('j1', 'revolute', 'b', 'c'), joint('j2', 'revolute', 'c', 'b')),
    'm.xml:6:1: <joint name="j2">: the joints form a cycle: b -> c -> b (URDF describes a tree)'],
  ['URDF link with two parents', 'urdf', robot(link('a'), link('b'), link('c'), joint('j1', 'revolute', 'a', 'c'), joint('j2', 'revolute', 'b', 'c')),
    "m.xml:6:1: <joint name=\"j2\">: link 'c' is the child of two joints, 'j1' and 'j2': the links must form a tree (a cycle or a closed loop)"],
  ['URDF link without inertial', 'urdf', robot(link('a'), link('b', false), joint('j1', 'revolute', 'a', 'b')),
    "m.xml:3:1: <link name=\"b\">: 'b' has no mass (no <inertial>); a .mech body needs mass > 0 to carry its revolute joint"],
  ['URDF planar joint', 'urdf', robot(link('a'), link('b'), joint('j1', 'planar', 'a', 'b')),
    "m.xml:4:1: <joint name=\"j1\">: joint 'j1': type 'planar' is not supported yet (.mech joints are revolute, prismatic, floating or fixed)"],
  ['URDF unknown joint type', 'urdf', robot(link('a'), link('b'), joint('j1', 'hinge', 'a', 'b')),
    "m.xml:4:1: <joint name=\"j1\">: joint 'j1': unknown joint type 'hinge' (URDF: revolute, continuous, prismatic, fixed, floating, planar)"],
  ['URDF unknown link', 'urdf', robot(link('a'), joint('j1', 'revolute', 'a', 'zz')),
    "m.xml:3:52: <child>: joint 'j1': unknown child link 'zz'"],
  ['URDF floating joint below a moving link', 'urdf', robot(link('a'), link('b'), link('c'), joint('j1', 'revolute', 'a', 'b'), joint('j2', 'floating', 'b', 'c')),
    "m.xml:6:1: <joint name=\"j2\">: the URDF floating joint needs its body attached to the world, but 'c' hangs from 'b' (.mech: a floating body's parent is base)"],
  ['URDF impossible inertia', 'urdf', robot(link('a'), '<link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="3"/></inertial></link>', joint('j1', 'revolute', 'a', 'b')),
    "m.xml:3:1: <link name=\"b\">: 'b' has an inertia no body can have: principal moments 1 1 3 (the largest exceeds the sum of the other two)"],
  ['MJCF inertia not positive definite', 'mjcf', body('<joint/><inertial mass="1" pos="0 0 0" diaginertia="0 1 1"/>'),
    "m.xml:1:20: <body name=\"a\">: 'a' has an inertia that is not positive definite: principal moments 0 1 1"],
  ['URDF wrong root element', 'urdf', '<mujoco/>',
    'm.xml:1:1: <mujoco>: the root element of a URDF file is <robot>'],
];

for (const [what, format, text, message] of CASES) {
  test(`${what}: ${message.slice(0, 60)}...`, () => {
    assert.throws(() => importModel(text, { format, name: 'm.xml' }), (e) => {
      assert.ok(e instanceof ImportError, `an ImportError, not ${e?.name}`);
      assert.equal(e.message, message);
      return true;
    });
  });
}

test('importModel in wasm/index.mjs rejects with the same ImportError; bad options are errors too', async () => {
  await assert.rejects(importModelApi('<robot', { format: 'urdf', name: 'x.urdf' }), { name: 'ImportError', message: /^x\.urdf:1:\d+: malformed XML/ });
  await assert.rejects(importModelApi('<robot/>', { format: 'sdf' }), { name: 'ImportError', message: "importModel: format must be 'mjcf' or 'urdf', got 'sdf'" });
  await assert.rejects(importModelApi(42), { name: 'ImportError' });
  await assert.rejects(importModelApi('<robot/>', { fromat: 'urdf' }), { name: 'ImportError', message: "importModel: unknown option 'fromat'; the options are format, name and files" });
  await assert.rejects(importModelApi('<robot/>', 'urdf'), { name: 'ImportError', message: /options must be an object/ });
  await assert.rejects(importModelApi('<sdf/>'), { name: 'ImportError', message: /has neither a <mujoco> nor a <robot> root/ });
});

test('URDF elements the importer does not read are dropped with a warning naming them, a <link> nested in a link too', () => {
  const xml = robot(link('a'), '<link name="b">' + inertial + '<link name="inner">' + inertial + '</link><sensor name="s"/></link>',
    '<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><calibration rising="0"/><safety_controller k_velocity="1"/></joint>');
  const { warnings } = importModel(xml, { name: 'nested.urdf' });
  assert.deepEqual(warnings, ['1 <link> elements in links dropped', '1 <sensor> elements in links dropped',
    '1 <calibration> elements in joints dropped', '1 <safety_controller> elements in joints dropped']);
});

test('a text over the importer\'s size cap is refused before it is parsed, naming its length and the cap', async () => {
  const huge = `<robot name="r"><link name="a" note="${'x'.repeat(50e6)}"/></robot>`;
  const message = `big.urdf: the model text is ${huge.length} characters, more than importModel reads (at most 8388608, 8 MiB)`;
  assert.equal(MAX_IMPORT_TEXT, 8388608);
  assert.throws(() => importModel(huge, { name: 'big.urdf' }), { name: 'ImportError', message });
  await assert.rejects(importModelApi(huge, { name: 'big.urdf' }), { name: 'ImportError', message });
  const over = `<robot name="r">${' '.repeat(MAX_IMPORT_TEXT)}</robot>`;
  assert.throws(() => importModel(over, { format: 'urdf' }), { name: 'ImportError', message: new RegExp(`^model: the model text is ${over.length} characters`) });
  const { warnings } = importModel(`<robot name="r"><link name="a" note="${'x'.repeat(1e6)}"/></robot>`, { name: 'ok.urdf' });
  assert.ok(Array.isArray(warnings), 'a text under the cap imports');
});

test('an URDF robot whose root link has no mass hangs from the world; a floating joint from it is a floating body', async () => {
  const { text } = importModel(robot(link('world', false), link('b'), joint('free', 'floating', 'world', 'b')), { name: 'f.urdf' });
  assert.match(text, /\nbody b\n {2}parent base\n {2}joint floating {3}# URDF joint 'free'\n/);
  assert.doesNotMatch(text, /body world/);
});

/** Deterministic uniform integers in [0, n) (Park–Miller). */
function prng(state) {
  return (n) => {
    state = (state * 16807) % 2147483647;
    return state % n;
  };
}

const PIECES = ['<', '>', '/>', '"', '=', ' ', '\n', '</body>', '<body>', '<joint type="ball"/>', '<joint/>', 'type="free"',
  '<freejoint/>', 'fixed', 'floating', 'planar', 'nan', '1e999', '-1', '0', '0 0 0', 'class="x"', 'childclass="panda"',
  '<inertial mass="1" diaginertia="0 0 0"/>', '<default class="y">', '&amp;', '&#10;', '<!--', '-->', '<![CDATA[', '<link name="a"/>',
  '<joint name="j" type="revolute"><parent link="a"/><child link="a"/></joint>', 'xyz="1 2"', 'rpy="a b c"', 'quat="0 0 0 0"',
  'euler="1 2 3"', 'xyaxes="1 0 0 1 0 0"', 'zaxis="0 0 0"', 'fromto="0 0 0 0 0 0"', 'size="-1"', 'mass="-2"'];

/** One random edit: delete, duplicate, insert a piece, change a digit or truncate. */
function mutate(text, random) {
  const at = random(text.length + 1);
  const len = 1 + random(Math.min(200, text.length + 1));
  switch (random(6)) {
    case 0: return text.slice(0, at) + text.slice(at + len);
    case 1: return text.slice(0, at) + text.slice(at, at + len) + text.slice(at);
    case 2: return text.slice(0, at) + PIECES[random(PIECES.length)] + text.slice(at);
    case 3: return text.slice(0, at) + String(random(10)) + text.slice(at + 1);
    case 4: return text.slice(0, at);
    default: {
      const from = random(text.length + 1);
      return text.slice(0, at) + text.slice(from, from + len) + text.slice(at + len);
    }
  }
}

test('fuzz: 12 000 mutations of the shipped MJCF and URDF each import or throw an ImportError; what imports opens', async () => {
  const sources = [
    ['mjcf', readFileSync(`${root}models/robots/panda.xml`, 'utf8')],
    ['urdf', readFileSync(`${root}models/robots/scara.urdf`, 'utf8')],
    ['mjcf', readFileSync(`${root}tests/import/features.xml`, 'utf8')],
  ];
  const random = prng(20240607);
  let imported = 0;
  let refused = 0;
  for (let i = 0; i < 12000; i++) {
    const [format, source] = sources[i % sources.length];
    let text = source;
    for (let k = 1 + random(3); k > 0; k--) text = mutate(text, random);
    try {
      const out = importModel(text, { format, name: 'fuzz' });
      assert.equal(typeof out.text, 'string');
      assert.ok(Array.isArray(out.warnings));
      // Every tenth imported text is opened too: the importer writes only what the .mech parser accepts.
      if (imported++ % 10 === 0) (await openModel({ text: out.text, name: 'fuzz' }, { backend: 'runtime' })).dispose();
    } catch (e) {
      if (!(e instanceof ImportError) || typeof e.message !== 'string' || !e.message.length) {
        assert.fail(`mutation ${i} threw ${e?.name}: ${e?.message}\n${e?.stack}`);
      }
      refused++;
    }
  }
  assert.equal(imported + refused, 12000);
  assert.ok(imported > 100 && refused > 100, `both outcomes occur (${imported} imported, ${refused} refused)`);
});
