// Cross-check of morphkit against independent implementations (test-only):
//  1. the Khronos glTF-Validator finds no errors in the sample files the
//     tests use (so the expectations elsewhere rest on valid input);
//  2. three.js (its GLTFLoader decodes the accessors, its AnimationMixer
//     samples the weights) gives the same weights and morphed positions and
//     normals as `morphkit sample --json`, within 1e-5, for AnimatedMorphCube
//     (float and quantized), SimpleMorph and MorphPrimitivesTest;
//  3. skinned models (SimpleSkin, RiggedSimple, RiggedFigure, Fox, and the
//     morphed + skinned HybridBar made for morphkit's tests): three.js's
//     SkinnedMesh.getVertexPosition (morph, then applyBoneTransform) after its
//     AnimationMixer animated the joints gives the world positions of
//     `morphkit sample --json --space world`, within 1e-4 of the model's size;
//     normals against the joints' blended matrices read from three's skeleton.
// Usage: node crosscheck.mjs TOOL SRC. Exit 77 (CTest skip) when the npm
// packages are not installed; see scripts/js-deps.sh.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, src] = process.argv.slice(2);
if (!tool || !src) {
  console.error('usage: node crosscheck.mjs TOOL SRC');
  process.exit(2);
}
if (!fs.existsSync(path.join(here, 'node_modules', 'three')) ||
    !fs.existsSync(path.join(here, 'node_modules', 'gltf-validator'))) {
  console.log('SKIP: tests/js/node_modules is missing (run scripts/js-deps.sh)');
  process.exit(77);
}
// three's FileLoader reports progress with the browser's ProgressEvent.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};
const THREE = await import('three');
const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
await MeshoptDecoder.ready;
const validator = (await import('gltf-validator')).default;

const data = path.join(src, 'tests', 'data', 'gltf');
let failures = 0, checks = 0;
function fail(msg) {
  failures++;
  console.log('FAIL: ' + msg);
}

// ---- 1. glTF-Validator -----------------------------------------------------
const files = [
  'AnimatedMorphCube/glTF/AnimatedMorphCube.gltf',
  'AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb',
  'AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf',
  'SimpleMorph/glTF/SimpleMorph.gltf',
  'SimpleMorph/glTF-Embedded/SimpleMorph.gltf',
  'MorphPrimitivesTest/glTF-Binary/MorphPrimitivesTest.glb',
  'SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf',
  'InterpolationTest/glTF-Binary/InterpolationTest.glb',
  'BoxAnimated/glTF-Binary/BoxAnimated.glb',
  'SimpleSkin/glTF/SimpleSkin.gltf',
  'RiggedSimple/glTF-Binary/RiggedSimple.glb',
  'RiggedFigure/glTF-Binary/RiggedFigure.glb',
  'Fox/glTF-Binary/Fox.glb',
  'HybridBar/HybridBar.gltf',
];
for (const rel of files) {
  const file = path.join(data, rel);
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    externalResourceFunction: (uri) =>
      Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri))))),
  });
  checks++;
  if (report.issues.numErrors !== 0) {
    fail(`gltf-validator: ${rel}: ${report.issues.numErrors} errors: ` +
         JSON.stringify(report.issues.messages.filter((m) => m.severity === 0).slice(0, 3)));
  }
}

// ---- 2. three.js against morphkit sample ----------------------------------
// External .bin files are handed to three's loader as data: URIs, which
// Node's fetch reads; no network, no file server.
function loadThree(file) {
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith('data:')) return url;
    const p = path.join(path.dirname(file), decodeURIComponent(url));
    return 'data:application/octet-stream;base64,' + fs.readFileSync(p).toString('base64');
  });
  const loader = new GLTFLoader(manager);
  loader.setMeshoptDecoder(MeshoptDecoder); // EXT_meshopt_compression (pack --compress)
  // Textures need a browser's image decoding; geometry does not use them.
  loader.register(() => ({ name: 'morphkit_no_textures', loadTexture: () => Promise.resolve(null) }));
  const bytes = fs.readFileSync(file);
  const input = file.endsWith('.glb')
    ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    : bytes.toString('utf8');
  return new Promise((resolve, reject) => loader.parse(input, '', resolve, reject));
}

function sampleMorphkit(file, times, extra = []) {
  const args = ['sample', file, '--json', ...extra];
  for (const t of times) args.push('--time', String(t));
  return JSON.parse(execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

// base + sum_i w_i * delta_i, read through three's decoded attributes
// (glTF morph attributes are relative: morphTargetsRelative).
function morph(geometry, name, weights) {
  const base = geometry.attributes[name];
  const targets = (geometry.morphAttributes[name] || []);
  const out = [];
  for (let v = 0; v < base.count; v++) {
    const p = [base.getX(v), base.getY(v), base.getZ(v)];
    targets.forEach((t, i) => {
      p[0] += weights[i] * t.getX(v);
      p[1] += weights[i] * t.getY(v);
      p[2] += weights[i] * t.getZ(v);
    });
    if (name === 'normal') {
      const len = Math.hypot(p[0], p[1], p[2]);
      if (len > 1e-12) for (let c = 0; c < 3; c++) p[c] /= len;
    }
    out.push(...p);
  }
  return out;
}

// Per vertex, the unit normal of the first triangle (in index order) that
// uses it, and of the last (through last); zero where none does.
function triangleNormals(pos, index, last) {
  const first = new Array(pos.length).fill(0), final = new Array(pos.length).fill(0), seen = [];
  const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3();
  for (let t = 0; t < index.count; t += 3) {
    const i = [index.getX(t), index.getX(t + 1), index.getX(t + 2)];
    a.fromArray(pos, 3 * i[0]);
    b.fromArray(pos, 3 * i[1]).sub(a);
    c.fromArray(pos, 3 * i[2]).sub(a);
    b.cross(c).normalize();
    for (const v of i) {
      if (!seen[v]) { seen[v] = true; b.toArray(first, 3 * v); }
      b.toArray(final, 3 * v);
    }
  }
  last(final);
  return first;
}

function compare(what, got, want, tol) {
  checks++;
  if (got.length !== want.length) {
    fail(`${what}: morphkit has ${got.length} values, three.js ${want.length}`);
    return;
  }
  for (let i = 0; i < got.length; i++) {
    if (!(Math.abs(got[i] - want[i]) <= tol * Math.max(1, Math.abs(want[i])))) {
      fail(`${what}[${i}]: morphkit ${got[i]}, three.js ${want[i]}`);
      return;
    }
  }
}

async function crossCheck(rel, times, tol) {
  const file = path.isAbsolute(rel) ? rel : path.join(data, rel);
  const gltf = await loadThree(file);
  const mk = sampleMorphkit(file, times);
  // Meshes in node order, as morphkit lists them (three names them after
  // the nodes; a multi-primitive mesh is a Group of one Mesh per primitive).
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh && o.geometry.attributes.position) meshes.push(o); });
  const clip = gltf.animations[0];
  const mixer = new THREE.AnimationMixer(gltf.scene);
  if (clip) {
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true; // the end value holds, as glTF says
    action.play();
  }
  times.forEach((t, k) => {
    mixer.setTime(t);
    const entries = mk.samples[k].meshes;
    if (entries.length !== meshes.length) {
      fail(`${rel}: morphkit lists ${entries.length} primitives, three.js ${meshes.length}`);
      return;
    }
    entries.forEach((e, i) => {
      const m = meshes[i];
      const w = m.morphTargetInfluences || [];
      const at = `${rel} t=${t} node ${e.node} primitive ${e.primitive}`;
      compare(`${at} weights`, e.weights, Array.from(w), tol);
      compare(`${at} positions`, e.positions, morph(m.geometry, 'position', w), tol);
      if (e.normals) compare(`${at} normals`, e.normals, morph(m.geometry, 'normal', w), tol);
    });
  });
}

await crossCheck('AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb', [0, 0.25, 1, 1.01, 2.5, 3.9, 4.2], 1e-5);
await crossCheck('AnimatedMorphCube/glTF/AnimatedMorphCube.gltf', [0.5, 2.5], 1e-5);
await crossCheck('AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf', [0.5, 2.5, 4], 1e-5);
await crossCheck('SimpleMorph/glTF/SimpleMorph.gltf', [0, 0.5, 1.5, 3.25, 4], 1e-5);
await crossCheck('SimpleMorph/glTF-Embedded/SimpleMorph.gltf', [1.5], 1e-5);
await crossCheck('MorphPrimitivesTest/glTF-Binary/MorphPrimitivesTest.glb', [0], 1e-5);

// ---- 3. packed units (`morphkit pack`) ------------------------------------
// Each packed file (plain float, and the default quantized form) passes the
// validator with no errors and no warnings, and
// three.js playing its glTF animations (from time 0, through the first pass
// of each clip) shows what `morphkit sample --anim NAME` shows on the
// folder (within the position error `pack` reports), mapped to OBJ `v` / `vn`
// order through the maps (accessors named in extras.morphkit, or none: the
// identity). The demo units cover linear blends, a no-blend frame, Once +
// Next and a loop frame; copies with changed interpolation cover smooth
// (CUBICSPLINE) and step clips.
const os = await import('node:os');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mk-pack-'));
function variant(name, unit, extraCfg) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (const f of fs.readdirSync(path.join(src, 'assets', 'demo', unit)))
    fs.copyFileSync(path.join(src, 'assets', 'demo', unit, f), path.join(dir, f));
  fs.appendFileSync(path.join(dir, 'animation.cfg'), extraCfg);
  return dir;
}
// A unit with materials: faces before any usemtl, two .mtl materials (one
// translucent, one with an embedded 1x1 PNG texture), a quad.
function materialUnit() {
  const dir = path.join(tmp, 'materials');
  fs.mkdirSync(dir);
  for (let k = 1; k <= 3; k++)
    fs.writeFileSync(path.join(dir, `Walk_${k}.obj`),
      `mtllib unit.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0.${k}\nv 0 1 0\nv 2 0 0\n` +
      'vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nf 1/1/1 2/2/1 3/3/1\nusemtl red\nf 1/1/1 3/3/1 4/4/1\n' +
      'usemtl tex\nf 2/2/1 5/1/1 3/3/1 4/4/1\nusemtl red\nf 2/2/1 5/2/1 3/3/1\n');
  fs.writeFileSync(path.join(dir, 'unit.mtl'),
    'newmtl red\nKd 1 0 0\nd 0.5\nnewmtl tex\nKd 0.5 0.25 1\nmap_Kd skin.png\n');
  fs.writeFileSync(path.join(dir, 'skin.png'), Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64'));
  fs.writeFileSync(path.join(dir, 'animation.cfg'), 'Interpolation Walk smooth\n');
  return dir;
}
// A regular grid (5 x 5 vertices, quads row by row, a normal per vertex):
// its vertices' first-use order is the `v` order except in the first two
// rows, so pack stores its maps as deltas from the identity (map_deltas,
// sparse in the uncompressed forms).
function gridUnit() {
  const dir = path.join(tmp, 'grid');
  fs.mkdirSync(dir);
  for (let k = 1; k <= 3; k++) {
    let s = '';
    for (let r = 0; r < 5; r++)
      for (let c = 0; c < 5; c++) s += `v ${c} ${r} ${(0.1 * k * Math.sin(c + r)).toFixed(4)}\n`;
    for (let r = 0; r < 5; r++)
      for (let c = 0; c < 5; c++) s += `vn 0 ${(0.1 * k * Math.cos(c + 2 * r)).toFixed(4)} 1\n`;
    for (let r = 0; r < 4; r++)
      for (let c = 0; c < 4; c++) {
        const a = r * 5 + c + 1, b = a + 5;
        s += `f ${a}//${a} ${b}//${b} ${b + 1}//${b + 1} ${a + 1}//${a + 1}\n`;
      }
    fs.writeFileSync(path.join(dir, `Wave_${k}.obj`), s);
  }
  return dir;
}
// A 4 x 3 grid with a texture seam down its second column (the faces to
// its right give those vertices texture coordinates of their own): 15
// render vertices in the folder; with --no-texcoords pack makes the seam's
// two sides one vertex again, so the file has the grid's 12.
function seamUnit() {
  const dir = path.join(tmp, 'seam');
  fs.mkdirSync(dir);
  for (let k = 1; k <= 3; k++) {
    let s = '';
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 4; c++) s += `v ${c} ${r} ${(0.2 * k * Math.sin(c + 2 * r)).toFixed(4)}\n`;
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 4; c++) s += `vt ${(c / 3).toFixed(4)} ${(r / 2).toFixed(4)}\n`;
    for (let r = 0; r < 3; r++) s += `vt 0.9 ${(r / 2).toFixed(4)}\n`; // vt 13-15: column 2 seen from the right
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 4; c++) s += `vn ${(0.1 * k * Math.cos(c + r)).toFixed(4)} 0 1\n`;
    for (let r = 0; r < 2; r++)
      for (let c = 0; c < 3; c++) {
        const a = r * 4 + c + 1, b = a + 4;
        const t = (v) => (c >= 1 && (v - 1) % 4 === 1 ? 13 + Math.floor((v - 1) / 4) : v);
        s += `f ${a}/${t(a)}/${a} ${b}/${t(b)}/${b} ${b + 1}/${t(b + 1)}/${b + 1} ${a + 1}/${t(a + 1)}/${a + 1}\n`;
      }
    fs.writeFileSync(path.join(dir, `Wave_${k}.obj`), s);
  }
  return dir;
}
const units = [
  materialUnit(),
  gridUnit(),
  seamUnit(),
  path.join(src, 'assets', 'demo', 'knight'),
  path.join(src, 'assets', 'demo', 'wing'),
  variant('wing_smooth', 'wing', '\nInterpolation Flap smooth\nInterpolation Beat step\n'),
  variant('knight_smooth', 'knight',
          '\nInterpolation Walk smooth\nInterpolation Attack smooth\nInterpolation Idle step\n'),
];
// plain float (morphkit reads it back within float rounding), the default
// quantized form (within the error `pack` reports; 8-bit normals) and that
// form meshopt-compressed (three.js decodes it with its MeshoptDecoder);
// the demo units (flat shaded) also with --flat-normals: no NORMAL, so
// three.js shades each triangle with its own normal, which must be the
// unit's at every frame (between frames a viewer shades the blended faces
// while morphkit blends the frames' normals: only positions are compared)
const flatUnits = ['knight', 'wing', 'knight_smooth', 'wing_smooth'];
// and the seam unit with --no-texcoords (its seam welded)
const forms = [['--plain'], [], ['--compress'], ['--flat-normals'], ['--compress', '--flat-normals'],
  ['--no-texcoords'], ['--no-texcoords', '--compress']];
for (const mode of forms) for (const dir of units) {
  const flatMode = mode.includes('--flat-normals'), welded = mode.includes('--no-texcoords');
  if (flatMode && !flatUnits.includes(path.basename(dir))) continue;
  if (welded && path.basename(dir) !== 'seam') continue;
  const normalTol = mode.includes('--plain') ? 1e-4 : 3e-2;
  const glb = path.join(tmp, path.basename(dir) + mode.map((m) => m.replace('--', '_')).join('') + '.glb');
  const table = execFileSync(tool, ['pack', dir, '-o', glb, ...mode], { encoding: 'utf8' });
  // the summary's last columns: "max error" (the largest position error of
  // the pack), "of size" and "normals" (flat: packed without them)
  const cells = table.trim().split('\n').pop().trim().split(/\s+/);
  const maxError = Number(cells.at(-3)), flatPack = cells.at(-1) === 'flat';
  const posTol = 2 * maxError + 1e-5;
  const bytes = fs.readFileSync(glb);
  const report = await validator.validateBytes(new Uint8Array(bytes), { uri: glb });
  // meshopt streams have the headers EXT_meshopt_compression specifies
  // (the validator does not decode them): 0xa0 for ATTRIBUTES, 0xe1 for
  // TRIANGLES (version 1)
  {
    const jsonLength = bytes.readUInt32LE(12), bin = 20 + jsonLength + 8;
    const doc = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
    for (const [i, v] of (doc.bufferViews || []).entries()) {
      const m = v.extensions && v.extensions.EXT_meshopt_compression;
      if (!m) continue;
      checks++;
      const want = m.mode === 'TRIANGLES' ? 0xe1 : m.mode === 'ATTRIBUTES' ? 0xa0 : 0xd1;
      const got = bytes[bin + (m.byteOffset || 0)];
      if (got !== want)
        fail(`${path.basename(glb)}: bufferViews[${i}] (${m.mode}) starts with 0x${got.toString(16)}, not 0x${want.toString(16)}`);
    }
  }
  checks++;
  if (report.issues.numErrors !== 0 || report.issues.numWarnings !== 0)
    fail(`gltf-validator: ${path.basename(glb)}: ${report.issues.numErrors} errors, ` +
         `${report.issues.numWarnings} warnings: ` +
         JSON.stringify(report.issues.messages.filter((m) => m.severity <= 1).slice(0, 3)));
  const gltf = await loadThree(glb);
  let mesh = null;
  gltf.scene.traverse((o) => { if (o.isMesh) mesh = o; });
  const g = mesh.geometry;
  // with --flat-normals the demo units have no NORMAL, and three.js shades
  // flat (material.flatShading)
  checks++;
  if (flatPack !== flatMode || !g.attributes.normal !== flatPack ||
      (flatPack && !mesh.material.flatShading))
    fail(`${path.basename(glb)}: flat ${flatPack}, NORMAL ${!!g.attributes.normal}, ` +
         `flatShading ${mesh.material.flatShading}`);
  if (path.basename(dir) === 'seam') {
    checks++;
    const want = welded ? 12 : 15;
    if (g.attributes.position.count !== want || !g.attributes.uv !== welded)
      fail(`${path.basename(glb)}: ${g.attributes.position.count} vertices (want ${want}), ` +
           `TEXCOORD_0 ${!!g.attributes.uv}`);
  }
  gltf.scene.updateMatrixWorld(true);
  const world = mesh.matrixWorld; // quantized positions: the node's translation + scale
  // the `v` / `vn` maps: accessors named in extras.morphkit (absent: the
  // identity), or told by the base pose (obj_v_order / obj_vn_order): the
  // distinct base elements numbered in order of first use, then permuted
  const x = gltf.userData.morphkit;
  checks++;
  // (compressed, its vertices are stored in `v` order, first_use_order, and
  // need no maps at all)
  if (path.basename(dir) === 'grid' && !(x.map_deltas && [x.obj_v, x.obj_vn, x.obj_v_order, x.obj_vn_order].some(Number.isInteger)) &&
      !(x.first_use_order && x.obj_v === undefined && x.obj_v_order === undefined))
    fail(`${path.basename(glb)}: the grid's maps are neither deltas (map_deltas) nor left out (first_use_order)`);
  // with map_deltas (version 4) a map's entry i holds (x_i - i) modulo its type's range
  const range = (a) => (a.array instanceof Uint8Array ? 256 : a.array instanceof Uint16Array ? 65536 : 4294967296);
  const accessor = async (i) => {
    const a = await gltf.parser.getDependency('accessor', i);
    return x.map_deltas ? { array: a.array, getX: (k) => (a.getX(k) + k) % range(a) } : a;
  };
  let objV = x.obj_v === undefined ? null : await accessor(x.obj_v);
  let objVn = x.obj_vn === undefined ? null : await accessor(x.obj_vn);
  let vnNone = objVn ? range(objVn) - 1 : -1;
  const firstUses = (attr) => {
    const key = (v) => [attr.getX(v), attr.getY(v), attr.getZ(v)].map((c) => (Object.is(c, -0) ? '-0' : String(c))).join(',');
    const classes = new Map(), classOf = [], first = [];
    for (let v = 0; v < attr.count; v++) {
      const k = key(v);
      if (!classes.has(k)) { classes.set(k, first.length); first.push(v); }
      classOf.push(classes.get(k));
    }
    return { classOf, first };
  };
  const order = async (member, count) => {
    const perm = member === true ? null : await accessor(member);
    return Array.from({ length: count }, (_, c) => (perm ? perm.getX(c) : c));
  };
  if (x.obj_v_order !== undefined) {
    const { classOf, first } = firstUses(g.attributes.position);
    const perm = await order(x.obj_v_order, first.length);
    objV = { getX: (v) => perm[classOf[v]] };
  }
  if (x.obj_vn_order !== undefined) {
    const { first } = firstUses(g.attributes.normal);
    const perm = await order(x.obj_vn_order, first.length), byVn = [];
    first.forEach((v, c) => { byVn[perm[c]] = v; });
    objVn = { getX: (j) => byVn[j] };
    vnNone = -1;
  }
  for (const clip of gltf.animations) {
    const times = [];
    for (let t = 0; t <= clip.duration; t += 0.0173) times.push(Math.round(t * 1e6) / 1e6);
    // flat: the frames themselves (2 us after each key, off the cuts of
    // step and no-blend keys; not the clip's end, where a viewer clamps and
    // the player loops or holds), where normals are compared too
    const keys = [...new Set(clip.tracks[0].times)].filter((t) => t + 2e-6 < clip.duration)
      .map((t) => Math.round((t + 2e-6) * 1e6) / 1e6);
    const atKey = new Set(keys);
    if (flatPack) times.push(...keys.filter((t) => !times.includes(t)));
    const mk = JSON.parse(execFileSync(tool, ['sample', dir, '--json', '--anim', clip.name,
      ...times.flatMap((t) => ['--time', String(t)])], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const mixer = new THREE.AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    times.forEach((t, k) => {
      mixer.setTime(t);
      const w = mesh.morphTargetInfluences;
      const e = mk.samples[k].meshes[0];
      const pos = morph(g, 'position', w);
      const p = new THREE.Vector3();
      for (let v = 0; v < pos.length; v += 3) {
        p.set(pos[v], pos[v + 1], pos[v + 2]).applyMatrix4(world);
        pos[v] = p.x, pos[v + 1] = p.y, pos[v + 2] = p.z;
      }
      // flat: what three.js shades each triangle with, its own normal;
      // every triangle of a vertex is compared (nrm: the first, nrm2: the last)
      let nrm2 = null;
      const nrm = flatPack ? triangleNormals(pos, g.index, (n) => { nrm2 = n; }) : morph(g, 'normal', w);
      const inV = new Array(e.positions.length).fill(NaN), inVn = new Array(e.normals.length).fill(0);
      const inVn2 = new Array(e.normals.length).fill(0);
      for (let v = 0; v < pos.length / 3; v++) {
        const i = objV ? objV.getX(v) : v;
        for (let c = 0; c < 3; c++) inV[3 * i + c] = pos[3 * v + c];
      }
      for (let j = 0; j < e.normals.length / 3; j++) {
        const v = objVn ? objVn.getX(j) : j;
        if (v !== vnNone)
          for (let c = 0; c < 3; c++) inVn[3 * j + c] = nrm[3 * v + c];
        if (v !== vnNone && nrm2)
          for (let c = 0; c < 3; c++) inVn2[3 * j + c] = nrm2[3 * v + c];
      }
      const at = `${path.basename(glb)} ${clip.name} t=${t}`;
      compare(`${at} positions`, e.positions, inV, posTol);
      if (!flatPack || atKey.has(t)) compare(`${at} normals`, e.normals, inVn, normalTol);
      if (nrm2 && atKey.has(t)) compare(`${at} normals (last triangle)`, e.normals, inVn2, normalTol);
    });
  }
}

// ---- 4. files made by gltfpack (EXT_meshopt_compression, another encoder) --
// morphkit's glTF reader decodes them; its `sample` agrees with three.js.
const gltfpack = path.join(here, 'node_modules', 'gltfpack', 'cli.js');
if (fs.existsSync(gltfpack)) {
  const input = path.join(tmp, 'knight_plain.glb');
  for (const args of [['-c'], ['-cc'], []]) {
    const out = path.join(tmp, `knight_gltfpack${args.join('')}.glb`);
    execFileSync('node', [gltfpack, '-i', input, '-o', out, ...args], { stdio: 'pipe' });
    await crossCheck(out, [0, 0.1, 0.37, 0.5], 1e-5);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
// ---- 4. skinned models in world space ----------------------------------------
// The skin's blended matrix sum_k w_k * bone.matrixWorld * boneInverse_k
// of vertex v (three's skinIndex/skinWeight hold JOINTS_0/WEIGHTS_0,
// normalized by its loader).
function skinMatrix(mesh, v) {
  const si = mesh.geometry.attributes.skinIndex, sw = mesh.geometry.attributes.skinWeight;
  const sum = new THREE.Matrix4().set(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const bone = new THREE.Matrix4();
  for (let k = 0; k < 4; k++) {
    const w = sw.getComponent(v, k);
    if (w === 0) continue;
    const j = si.getComponent(v, k);
    bone.multiplyMatrices(mesh.skeleton.bones[j].matrixWorld, mesh.skeleton.boneInverses[j]);
    for (let e = 0; e < 16; e++) sum.elements[e] += w * bone.elements[e];
  }
  return sum;
}

async function crossCheckWorld(rel, times) {
  const file = path.join(data, rel);
  const gltf = await loadThree(file);
  const mk = sampleMorphkit(file, times, ['--space', 'world']);
  // In glTF node then primitive order, as morphkit lists them (the loader's
  // associations name each object's node; a multi-primitive mesh is a Group
  // of one Mesh per primitive).
  const assoc = (o) => gltf.parser.associations.get(o) || {};
  const key = (o) => [assoc(o).nodes ?? assoc(o.parent).nodes, assoc(o).primitives ?? 0];
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh && o.geometry.attributes.position) meshes.push(o); });
  meshes.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  if (gltf.animations[0]) {
    const action = mixer.clipAction(gltf.animations[0]);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
  }
  times.forEach((t, k) => {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    const entries = mk.samples[k].meshes;
    if (entries.length !== meshes.length) {
      fail(`${rel}: morphkit lists ${entries.length} primitives, three.js ${meshes.length}`);
      return;
    }
    entries.forEach((e, i) => {
      const m = meshes[i], at = `${rel} t=${t} node ${e.node} primitive ${e.primitive}`;
      checks++;
      if ((e.skin !== null) !== (m.isSkinnedMesh === true)) {
        fail(`${at}: morphkit skin ${e.skin}, three.js isSkinnedMesh ${m.isSkinnedMesh}`);
        return;
      }
      const n = m.geometry.attributes.position.count, pos = [], nrm = [];
      const normals = m.geometry.attributes.normal ? morph(m.geometry, 'normal', m.morphTargetInfluences || []) : null;
      const v = new THREE.Vector3(), nm = new THREE.Matrix3();
      const box = new THREE.Box3();
      for (let i = 0; i < n; i++) {
        // Morph, then (SkinnedMesh) applyBoneTransform, which answers in the
        // mesh's local space (its bindMatrixInverse is the inverse of the
        // mesh's world matrix): the world matrix brings both to scene space.
        m.getVertexPosition(i, v).applyMatrix4(m.matrixWorld);
        box.expandByPoint(v);
        pos.push(v.x, v.y, v.z);
        if (normals) {
          if (m.isSkinnedMesh) nm.setFromMatrix4(skinMatrix(m, i)); // the linear part
          else nm.getNormalMatrix(m.matrixWorld);
          v.fromArray(normals, 3 * i).applyMatrix3(nm).normalize();
          nrm.push(v.x, v.y, v.z);
        }
      }
      const size = box.getSize(new THREE.Vector3()).length();
      compareAbs(`${at} world positions`, e.positions, pos, 1e-4 * size);
      if (normals && e.normals) compareAbs(`${at} world normals`, e.normals, nrm, 1e-4);
    });
  });
}

function compareAbs(what, got, want, tol) {
  checks++;
  if (got.length !== want.length) {
    fail(`${what}: morphkit has ${got.length} values, three.js ${want.length}`);
    return;
  }
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
  if (!(worst <= tol)) fail(`${what}: largest difference ${worst} > ${tol}`);
}

await crossCheckWorld('SimpleSkin/glTF/SimpleSkin.gltf', [0, 0.7, 2.5, 5.5, 6]);
await crossCheckWorld('RiggedSimple/glTF-Binary/RiggedSimple.glb', [0, 0.5, 1.3, 2.5]);
await crossCheckWorld('RiggedSimple/glTF/RiggedSimple.gltf', [0.9]);
await crossCheckWorld('RiggedFigure/glTF-Binary/RiggedFigure.glb', [0, 0.3, 0.9, 1.25]);
await crossCheckWorld('Fox/glTF-Binary/Fox.glb', [0, 1.1, 3.3]);
// Morph targets (mesh.weights) and a skin on one mesh: morph first, then skin.
await crossCheckWorld('HybridBar/HybridBar.gltf', [0, 0.5, 1, 1.7]);
// Not skinned: world = node world matrix times the morphed vertex.
await crossCheckWorld('BoxAnimated/glTF-Binary/BoxAnimated.glb', [0, 1.2, 3]);
await crossCheckWorld('AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb', [1.5]);

console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
