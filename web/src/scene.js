// scene.js — renderer, z-up camera with orbit controls and fitting, lights with shadows, the floor and world frame,
// and the rendering level (quality.js).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createQuality, MIN_PIXEL_RATIO } from './quality.js';

THREE.Object3D.DEFAULT_UP.set(0, 0, 1); // the models' world is z-up (gravity 0 0 -9.81)

const BACKGROUND = 0x11151c;
const FLOOR = 0x171d26;
const GRID_MINOR = 0x2a3444;
const GRID_MAJOR = 0x3e4c63;
const FLOOR_REACH = 12; // the floor reaches this many times the model's reach from the origin
const FIT_MARGIN = 0.8; // a fitted model's box spans this fraction of the view's height or width

/** The layer of what is drawn over the model, which a slow renderer gives up after shadows (quality.js): joint axes, points of interest, world frame. */
export const DECORATIONS = 1;

/** 1, 2 or 5 × a power of ten, nearest to `x` from below. */
function roundStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m < 2 ? 1 : m < 5 ? 2 : 5) * p;
}

/**
 * The floor's material: a plain colour with grid lines drawn per pixel (so they stay one pixel wide and
 * antialiased at any distance, and minor lines fade where they would crowd), every 5th line a major one;
 * `cell` (a uniform, m) is the grid's cell. Fog applies as to any material.
 */
function floorMaterial(cell) {
  const material = new THREE.MeshBasicMaterial({ color: FLOOR, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  material.onBeforeCompile = (shader) => {
    Object.assign(shader.uniforms, { cell, minor: { value: new THREE.Color(GRID_MINOR) }, major: { value: new THREE.Color(GRID_MAJOR) } });
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nvarying vec2 vFloor;')
      .replace('#include <begin_vertex>', '#include <begin_vertex>\nvFloor = (modelMatrix * vec4(position, 1.0)).xy;');
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', `#include <common>
varying vec2 vFloor;
uniform float cell;
uniform vec3 minor, major;
// 1 on a line of the grid of cells of size 1 in p, falling off over a pixel; 0 where lines would crowd.
float gridLine(vec2 p) {
  vec2 w = fwidth(p);
  vec2 d = abs(fract(p - 0.5) - 0.5) / w;
  return (1.0 - min(min(d.x, d.y), 1.0)) * (1.0 - smoothstep(0.15, 0.35, max(w.x, w.y)));
}`)
      .replace('#include <color_fragment>', `#include <color_fragment>
diffuseColor.rgb = mix(diffuseColor.rgb, minor, gridLine(vFloor / cell));
diffuseColor.rgb = mix(diffuseColor.rgb, major, gridLine(vFloor / (5.0 * cell)));`);
  };
  return material;
}

// Software rasterizers pay dearly for multisampling; ask a throwaway context which renderer this is.
function softwareRenderer() {
  const gl = document.createElement('canvas').getContext('webgl2');
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : '';
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}

export function createScene(container) {
  const renderer = new THREE.WebGLRenderer({ antialias: !softwareRenderer(), powerPreference: 'high-performance' });
  const basePixelRatio = Math.min(window.devicePixelRatio, 2);
  renderer.setPixelRatio(basePixelRatio);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.domElement.setAttribute('role', 'img');
  renderer.domElement.setAttribute('aria-label',
    'The model in 3D: drag to orbit, click a body to inspect it, Ctrl+drag a body to pull it');
  container.append(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(BACKGROUND);
  scene.fog = new THREE.Fog(BACKGROUND, 10, 60);

  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 200);
  camera.position.set(2.5, -3.5, 2);
  camera.layers.enable(DECORATIONS);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;
  controls.dampingFactor = 0.12;

  scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x202530, 1.4));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.castShadow = true;
  sun.shadow.mapSize.set(1024, 1024);
  sun.shadow.bias = -0.0004;
  sun.shadow.normalBias = 0.01;
  scene.add(sun, sun.target);

  // The floor: a plane a shade lighter than the background, which the fog fades into, with a grid of round
  // cells sized from the model; and over it a plane catching the shadows.
  const floor = new THREE.Group();
  const cell = { value: 1 };
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), floorMaterial(cell));
  const ground = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.ShadowMaterial({ opacity: 0.35 }));
  ground.receiveShadow = true;
  floor.add(plane, ground);
  scene.add(floor);

  const world = new THREE.AxesHelper(1);
  world.material.depthTest = false;
  world.renderOrder = 9;
  world.layers.set(DECORATIONS);
  scene.add(world);

  let model = null;
  let extent = null;   // the last model's box, to tell whether a reloaded one still fits the camera
  let followed = null; // last followed point (free-floating models)
  let shadowsWanted = true;
  let dirty = true;
  let shadowsAllowed = true;
  const quality = createQuality(({ pixelRatio, shadows, decorations }) => {
    renderer.setPixelRatio(Math.max(basePixelRatio * pixelRatio, MIN_PIXEL_RATIO));
    shadowsAllowed = shadows;
    sun.castShadow = ground.visible = shadowsWanted && shadows; // the ground only catches shadows
    if (decorations) camera.layers.enable(DECORATIONS);
    else camera.layers.disable(DECORATIONS);
    resize();
  });

  function resize() {
    const { clientWidth: w, clientHeight: h } = container;
    if (!w || !h) return;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    dirty = true;
  }
  new ResizeObserver(resize).observe(container);
  resize();

  // Fits floor, shadow camera and fog to a model of this extent; `reach` bounds where it can move. The floor
  // is under the model, or under its reach when it hangs from the world (an anchored body below z = 0).
  function fitEnvironment(box, anchored) {
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const reach = Math.max(box.max.length(), box.min.length(), size.length() / 2, 0.05);
    const z = anchored && box.min.z < -1e-6 ? -reach * 1.05 : Math.min(0, box.min.z);
    // Cells of a round size, 4 to 10 to the model's reach, so the grid reads as a floor at any scale. The
    // fog fades the floor out before its edge.
    cell.value = roundStep(reach / 4);
    const span = 2 * FLOOR_REACH * reach;
    floor.position.set(0, 0, z);
    plane.scale.set(span, span, 1);
    ground.scale.set(span, span, 1);
    world.scale.setScalar(reach * 0.35);
    sun.position.set(centre.x + reach * 1.2, centre.y - reach * 0.8, z + reach * 3);
    sun.target.position.set(centre.x, centre.y, z);
    Object.assign(sun.shadow.camera, { left: -reach * 2, right: reach * 2, top: reach * 2, bottom: -reach * 2, near: 0.01, far: reach * 8 });
    sun.shadow.camera.updateProjectionMatrix();
    scene.fog.near = reach * 6;
    scene.fog.far = reach * FLOOR_REACH;
    camera.near = reach / 500;
    camera.far = reach * 60;
    camera.updateProjectionMatrix();
    controls.maxDistance = reach * 20;
  }

  /**
   * The box the camera frames: the model's, and for a mechanism anchored to the world some room to move
   * about the origin (a third of its reach every way: it moves within its reach of the origin).
   */
  function framedBox() {
    const box = model.bounds();
    if (model.anchored) {
      const reach = Math.max(box.max.length(), box.min.length());
      box.union(new THREE.Box3().setFromCenterAndSize(new THREE.Vector3(), new THREE.Vector3().setScalar((2 / 3) * reach)));
    }
    return box;
  }

  // Renders and reads the canvas back, downscaled, as luminance (the drawing buffer is current right after).
  function luminance() {
    controls.update();
    renderer.render(scene, camera);
    const src = renderer.domElement;
    const c = document.createElement('canvas');
    c.width = 200;
    c.height = Math.max(1, Math.round((200 * src.height) / src.width));
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(src, 0, 0, c.width, c.height);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const y = new Float32Array(px.length / 4);
    for (let i = 0; i < y.length; i++) y[i] = 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2];
    return y;
  }

  return {
    /** For picking and overlays (inspect.js). */
    camera,
    canvas: renderer.domElement,
    root: scene,
    /**
     * Replaces the displayed model view (see model-view.js); null shows none. True when the new model's
     * extent differs from the last one's (another size, or elsewhere): a camera kept for it needs framing.
     */
    setModel(view) {
      quality.forget();
      if (model) {
        scene.remove(model.group);
        if (model.environment) scene.remove(model.environment);
        model.dispose();
      }
      model = view;
      // A model with its own ground (a terrain: track-view.js) shows it instead of the floor grid.
      floor.visible = !view?.environment;
      dirty = true;
      if (!view) return false;
      scene.add(view.group);
      if (view.environment) scene.add(view.environment);
      const box = view.bounds();
      fitEnvironment(box, view.anchored);
      const before = extent;
      extent = box;
      if (!before) return true;
      const [a, b] = [before, box].map((x) => x.getSize(new THREE.Vector3()).length());
      const moved = before.getCenter(new THREE.Vector3()).distanceTo(box.getCenter(new THREE.Vector3()));
      return Math.max(a, b) > 1.25 * Math.min(a, b) || moved > 0.25 * Math.max(a, b);
    },
    /**
     * Points the camera at the model from a three-quarter view, as close as keeps the framed box (framedBox)
     * within FIT_MARGIN of the view's height and width.
     */
    frameModel() {
      const box = framedBox();
      const centre = box.getCenter(new THREE.Vector3());
      const back = new THREE.Vector3(0.55, -0.75, 0.38).normalize(); // from the target toward the camera
      const right = new THREE.Vector3().crossVectors(THREE.Object3D.DEFAULT_UP, back).normalize();
      const up = new THREE.Vector3().crossVectors(back, right);
      const tanY = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) * FIT_MARGIN;
      const tanX = tanY * camera.aspect;
      let dist = 0;
      const o = new THREE.Vector3();
      for (let i = 0; i < 8; i++) {
        o.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).sub(centre);
        // The corner is o·back nearer than the target: the camera must be this far for it to fit.
        dist = Math.max(dist, Math.abs(o.dot(right)) / tanX + o.dot(back), Math.abs(o.dot(up)) / tanY + o.dot(back));
      }
      dist = Math.max(dist, camera.near * 10);
      controls.target.copy(centre);
      camera.position.copy(centre).addScaledVector(back, dist);
      controls.update();
      followed = null;
      dirty = true;
    },
    /**
     * Where the model's box falls in the view, for tests: the rectangle its corners project onto, in
     * fractions of the canvas from its top left corner ({ left, right, top, bottom }).
     */
    framing() {
      camera.updateMatrixWorld();
      const box = model.bounds();
      const xs = [], ys = [];
      for (let i = 0; i < 8; i++) {
        const p = new THREE.Vector3(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).project(camera);
        xs.push((p.x + 1) / 2);
        ys.push((1 - p.y) / 2);
      }
      return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
    },
    /** Moves camera and target with `point` (a free-floating model's root), from where it was last. */
    follow(point) {
      if (followed) {
        const d = new THREE.Vector3().subVectors(point, followed);
        camera.position.add(d);
        controls.target.add(d);
      }
      followed = point.clone();
    },
    /** Stops following: the next follow() starts from its point, without a jump. */
    unfollow() {
      followed = null;
    },
    /** Camera as [px, py, pz, tx, ty, tz]. */
    getCamera() {
      return [...camera.position.toArray(), ...controls.target.toArray()];
    },
    setCamera(c) {
      camera.position.set(c[0], c[1], c[2]);
      controls.target.set(c[3], c[4], c[5]);
      controls.update();
      followed = null;
      dirty = true;
    },
    setWorldFrame(v) {
      world.visible = v;
      dirty = true;
    },
    setShadows(v) {
      shadowsWanted = v;
      sun.castShadow = ground.visible = v && shadowsAllowed;
      dirty = true;
    },
    /** The quality setting: 'auto' (adapts while playing), 'high' or 'low' (quality.js). */
    setQuality(mode) {
      quality.setMode(mode);
      dirty = true;
    },
    /**
     * Adapts the rendering level to the measured frame rate while playing; `fps` null means paused
     * (quality.js). Returns the level, 0 = full.
     */
    adapt(fps) {
      return quality.adapt(fps);
    },
    /** The height of the floor drawn under the model (fitEnvironment), which the floor toggle makes collide. */
    floorHeight() {
      return floor.position.z;
    },
    /** Marks the picture stale: the next render() draws. */
    invalidate() {
      dirty = true;
    },
    /** Draws if anything changed (camera, model, settings) since the last draw; true when it drew. */
    render() {
      if (!controls.update() && !dirty) return false;
      dirty = false;
      renderer.render(scene, camera);
      return true;
    },
    /** What the last draw cost the renderer: draw calls, triangles, the rendering level and pixel ratio. */
    renderStats() {
      const { calls, triangles } = renderer.info.render;
      return { calls, triangles, level: quality.level, quality: quality.mode, pixelRatio: renderer.getPixelRatio() };
    },
    /**
     * Canvas checks for tests: luminance mean and variance, and the fraction of pixels the model changes
     * (the scene rendered with and without it; with and without `parts` of it when given).
     */
    pixelStats(parts = [model.group]) {
      const shown = luminance();
      for (const o of parts) o.visible = false;
      const hidden = luminance();
      for (const o of parts) o.visible = true;
      dirty = true;
      let sum = 0, sum2 = 0, changed = 0;
      shown.forEach((y, i) => {
        sum += y;
        sum2 += y * y;
        if (Math.abs(y - hidden[i]) > 8) changed++;
      });
      const mean = sum / shown.length;
      return { mean, variance: sum2 / shown.length - mean * mean, modelFraction: changed / shown.length };
    },
  };
}
