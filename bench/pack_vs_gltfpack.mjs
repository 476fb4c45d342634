// File size of `morphkit pack` against gltfpack (the npm package pinned in
// tests/js, test-only), on the demo units and the units bench_pack
// generates. gltfpack gets what it expects: a plain float .glb with one
// morph target per frame (`pack --plain --every-frame`), and runs with its
// defaults and with -cc (its highest compression). Position errors are
// relative to the unit's size (the median of its frames' bounding-box
// diagonals): morphkit's are measured (pack's summary), gltfpack's are its
// grid bound (half its node scale), as both quantize positions on a uniform
// grid. `gltfpack -vp N` with N = morphkit's bits compares at equal error.
// gltfpack drops texture coordinates that no material's texture uses (with
// -kv it keeps the attribute but writes zeros), pack keeps them: `pack
// --no-texcoords` is the same content as gltfpack's output.
// The generated units are bench_pack's at its --quick sizes (sphere: 600
// vertices, limb: 192).
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

const folderBytes = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.obj'))
  .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
// pack's summary line: ... bytes-after ratio bits max-error of-size
function pack(dir, out, args) {
  const line = execFileSync(tool, ['pack', dir, '-o', out, ...args], { encoding: 'utf8' })
    .trim().split('\n').pop().trim().split(/\s+/);
  return { bytes: fs.statSync(out).size, bits: line.at(-3), error: Number(line.at(-2)), rel: Number(line.at(-1)) };
}
function runGltfpack(input, out, args, size) {
  execFileSync('node', [gltfpack, '-i', input, '-o', out, ...args], { stdio: 'pipe' });
  const d = fs.readFileSync(out);
  const json = JSON.parse(d.subarray(20, 20 + d.readUInt32LE(12)).toString('utf8'));
  const node = json.nodes.find((n) => n.mesh !== undefined && n.scale) || { scale: [0] };
  return { bytes: d.length, rel: node.scale[0] / 2 / size };
}

const pct = (a, b) => (100 * a / b).toFixed(1) + '%';
console.log('| unit | OBJ folder | pack | pack --compress | error | gltfpack | gltfpack -cc | error | gltfpack -vp N | -vp N -cc | error | pack --no-texcoords | --no-texcoords --compress |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const dir of units) {
  const name = path.basename(dir), folder = folderBytes(dir);
  const input = path.join(tmp, name + '_input.glb');
  pack(dir, input, ['--plain', '--every-frame']);
  const d = pack(dir, path.join(tmp, name + '.glb'), []);
  const c = pack(dir, path.join(tmp, name + '_c.glb'), ['--compress']);
  const size = d.error / d.rel;
  const g = runGltfpack(input, path.join(tmp, name + '_gp.glb'), [], size);
  const gc = runGltfpack(input, path.join(tmp, name + '_gpcc.glb'), ['-cc'], size);
  const gv = runGltfpack(input, path.join(tmp, name + '_gpv.glb'), ['-vp', d.bits], size);
  const gvc = runGltfpack(input, path.join(tmp, name + '_gpvc.glb'), ['-vp', d.bits, '-cc'], size);
  const n = pack(dir, path.join(tmp, name + '_n.glb'), ['--no-texcoords']);
  const nc = pack(dir, path.join(tmp, name + '_nc.glb'), ['--no-texcoords', '--compress']);
  console.log(`| ${name} | ${folder} | ${d.bytes} (${pct(d.bytes, folder)}) | ${c.bytes} (${pct(c.bytes, folder)}) | ` +
    `${d.rel.toExponential(1)} (${d.bits} bits) | ${g.bytes} | ${gc.bytes} | ${g.rel.toExponential(1)} | ` +
    `${gv.bytes} | ${gvc.bytes} | ${gv.rel.toExponential(1)} | ${n.bytes} | ${nc.bytes} |`);
}
fs.rmSync(tmp, { recursive: true, force: true });
