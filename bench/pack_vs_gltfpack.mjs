// File size of `morphkit pack` against gltfpack (the npm package pinned in
// tests/js, test-only), on the demo units and the units bench_pack
// generates. gltfpack gets what it expects: a plain float .glb with one
// morph target per frame (`pack --plain --every-frame`), and runs with its
// defaults and with -cc (its highest compression). Position errors are
// relative to the unit's size (the median of its frames' bounding-box
// diagonals): morphkit's are measured (pack's summary), gltfpack's are its
// grid bound (half its node scale), as both quantize positions on a uniform
// grid. The second table compares at equal error and equal content: for
// gltfpack's default (14 bits) and for `-vp N` with N = pack's bits, pack
// runs with gltfpack's error as its --max-error and with --no-texcoords
// (gltfpack drops texture coordinates that no material's texture uses;
// with -kv it keeps the attribute but writes zeros).
// The generated units are bench_pack's at its --quick sizes (sphere: 600
// vertices, limb: 192); suzanne is a unit as Blender exports it
// (bench/blender_unit.py: 2 012 vertices, texture seams, 60 frames), made
// when `blender` is on the PATH.
// Usage: node bench/pack_vs_gltfpack.mjs BUILD_DIR SRC_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [build, src] = process.argv.slice(2);
const tool = path.join(build, 'morphkit');
const gltfpack = path.join(src, 'tests', 'js', 'node_modules', 'gltfpack', 'cli.js');
if (!fs.existsSync(gltfpack)) {
  console.log('gltfpack is not installed: run scripts/js-deps.sh');
  process.exit(77);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mk-vs-gltfpack-'));
const generated = execFileSync(path.join(build, 'bench', 'bench_pack'), ['--quick', '--write-units', tmp],
  { encoding: 'utf8' }).trim().split('\n');
const units = [path.join(src, 'assets/demo/knight'), path.join(src, 'assets/demo/wing'), ...generated];
try {
  const dir = path.join(tmp, 'suzanne');
  execFileSync('blender', ['-b', '--factory-startup', '--python-exit-code', '1',
    '--python', path.join(src, 'bench', 'blender_unit.py'),
    '--', dir], { stdio: 'pipe' });
  units.push(dir);
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
  console.log('blender is not installed: the suzanne unit is left out');
}

const folderBytes = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.obj'))
  .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
// pack's summary line: ... bytes-after ratio bits max-error of-size normals
function pack(dir, out, args) {
  const line = execFileSync(tool, ['pack', dir, '-o', out, ...args], { encoding: 'utf8' })
    .trim().split('\n').pop().trim().split(/\s+/);
  return { bytes: fs.statSync(out).size, bits: line.at(-4), error: Number(line.at(-3)), rel: Number(line.at(-2)),
    flat: line.at(-1) === 'flat' };
}
function runGltfpack(input, out, args, size) {
  execFileSync('node', [gltfpack, '-i', input, '-o', out, ...args], { stdio: 'pipe' });
  const d = fs.readFileSync(out);
  const json = JSON.parse(d.subarray(20, 20 + d.readUInt32LE(12)).toString('utf8'));
  const node = json.nodes.find((n) => n.mesh !== undefined && n.scale) || { scale: [0] };
  return { bytes: d.length, rel: node.scale[0] / 2 / size };
}

const pct = (a, b) => (100 * a / b).toFixed(1) + '%';
const e1 = (x) => x.toExponential(1);
const rows = [], versus = [];
for (const dir of units) {
  const name = path.basename(dir), folder = folderBytes(dir);
  const input = path.join(tmp, name + '_input.glb');
  pack(dir, input, ['--plain', '--every-frame']);
  const d = pack(dir, path.join(tmp, name + '.glb'), []);
  const c = pack(dir, path.join(tmp, name + '_c.glb'), ['--compress']);
  const size = d.error / d.rel;
  // --flat-normals: kept only for a flat-shaded unit (and when smaller)
  const f = pack(dir, path.join(tmp, name + '_f.glb'), ['--flat-normals']);
  const fc = pack(dir, path.join(tmp, name + '_fc.glb'), ['--flat-normals', '--compress']);
  const flat = f.flat || fc.flat
    ? `${f.bytes} (${pct(f.bytes, folder)}) | ${fc.bytes} (${pct(fc.bytes, folder)}) | ${e1(fc.rel)} (${fc.bits} bits)`
    : '(smooth: as pack) | | ';
  rows.push(`| ${name} | ${folder} | ${d.bytes} (${pct(d.bytes, folder)}) | ${c.bytes} (${pct(c.bytes, folder)}) | ` +
    `${e1(d.rel)} (${d.bits} bits) | ${flat} |`);
  // gltfpack's default (14 bits) and -vp N with pack's bits; pack gets the
  // same content (--no-texcoords) and gltfpack's error as its --max-error
  for (const [label, args] of [['default', []], [`-vp ${d.bits}`, ['-vp', d.bits]]]) {
    const g = runGltfpack(input, path.join(tmp, name + '_gp.glb'), args, size);
    const gc = runGltfpack(input, path.join(tmp, name + '_gpc.glb'), [...args, '-cc'], size);
    const bound = ['--no-texcoords', '--max-error', String(g.rel)];
    const n = pack(dir, path.join(tmp, name + '_n.glb'), bound);
    const nc = pack(dir, path.join(tmp, name + '_nc.glb'), [...bound, '--compress']);
    const ratio = (a, b) => (a / b).toFixed(3);
    versus.push(`| ${name} | ${label} | ${e1(g.rel)} | ${g.bytes} | ${n.bytes} (${e1(n.rel)}) | ${ratio(n.bytes, g.bytes)} | ` +
      `${gc.bytes} | ${nc.bytes} | ${ratio(nc.bytes, gc.bytes)} |`);
  }
}
console.log('| unit | OBJ folder | pack | pack --compress | error (grid) | --flat-normals | --flat-normals --compress | error (grid) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
rows.forEach((r) => console.log(r));
console.log('');
console.log('| unit | gltfpack | its error | gltfpack | pack --no-texcoords --max-error (its error) | pack / gltfpack | gltfpack -cc | pack ... --compress | pack / gltfpack |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
versus.forEach((r) => console.log(r));
fs.rmSync(tmp, { recursive: true, force: true });
