#!/bin/bash
# morphkit preview: headless pictures (EGL). Exits 77 (skipped) where no
# OpenGL 3.3 context can be made without a window.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
K=$SRC/assets/demo/knight

out=$("$TOOL" preview "$K" --anim Walk --out "$TMP/probe.png" --size 32x32 2>&1)
if [ $? -ne 0 ] && printf '%s' "$out" | grep -q "OpenGL\|EGL"; then
    echo "skipped: $out"; exit 77
fi

# png_size FILE: "W H" from the IHDR chunk (bytes 16..23, big-endian)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }
# gif_frames FILE: graphic control extensions (21 f9 04), one per frame
gif_frames() { od -An -tx1 -v "$1" | tr -d '\n' | tr -s ' ' | grep -o ' 21 f9 04' | wc -l; }

# a PNG of the requested size, a real PNG signature
expect 0 preview "$K" --anim Walk --out "$TMP/walk.png" --size 123x77 --time 0.2
has "$out" "$TMP/walk.png"
[ "$(png_size "$TMP/walk.png")" = "123 77" ] || { echo "FAIL: walk.png is $(png_size "$TMP/walk.png")"; fails=$((fails + 1)); }
[ "$(od -An -tx1 -N8 "$TMP/walk.png" | tr -d ' ')" = "89504e470d0a1a0a" ] || { echo "FAIL: not a PNG"; fails=$((fails + 1)); }

# different times give different pictures; the same time the same one
expect 0 preview "$K" --anim Walk --out "$TMP/walk0.png" --size 123x77 --time 0
expect 0 preview "$K" --anim Walk --out "$TMP/walk0b.png" --size 123x77 --time 0
cmp -s "$TMP/walk.png" "$TMP/walk0.png" && { echo "FAIL: frames at 0 and 0.2 s are equal"; fails=$((fails + 1)); }
cmp -s "$TMP/walk0b.png" "$TMP/walk0.png" || { echo "FAIL: the same time renders differently"; fails=$((fails + 1)); }

# a GIF: fps * seconds frames, header GIF89a, frames that change over time
expect 0 preview "$K" --anim Walk --out "$TMP/walk.gif" --size 96x96 --fps 10 --seconds 0.7
[ "$(head -c 6 "$TMP/walk.gif")" = "GIF89a" ] || { echo "FAIL: not a GIF89a"; fails=$((fails + 1)); }
[ "$(gif_frames "$TMP/walk.gif")" = "7" ] || { echo "FAIL: walk.gif has $(gif_frames "$TMP/walk.gif") frames, expected 7"; fails=$((fails + 1)); }
# the default length is one run of the animation (Walk: 6 x 120 ms at 20 fps)
expect 0 preview "$K" --anim Walk --out "$TMP/run.gif" --size 64x64
[ "$(gif_frames "$TMP/run.gif")" = "15" ] || { echo "FAIL: run.gif has $(gif_frames "$TMP/run.gif") frames, expected 15"; fails=$((fails + 1)); }
# a held (Once-finished) pose gives identical frames; a moving one does not:
# compare the LZW data sizes of a still and a moving GIF of the same length
expect 0 preview "$K" --anim Walk --out "$TMP/still.gif" --size 96x96 --fps 10 --seconds 0.7 --interpolation step
cmp -s "$TMP/walk.gif" "$TMP/still.gif" && { echo "FAIL: step and linear GIFs are equal"; fails=$((fails + 1)); }

# a contact sheet: Idle has 4 frames -> 8 cells (frame + mid-blend) -> 3x3
# cells of 50x40 pictures, each with a label band below: at scale 1 a line
# holds (50 - 4) / 6 = 7 characters, so "Idle 1>2 w0.00" wraps to 3 lines:
# band 3 x 9 + 4 = 31, cell 71 high -> 150 x 213
expect 0 preview "$K" --anim Idle --sheet --size 50x40 --out "$TMP/idle.png"
[ "$(png_size "$TMP/idle.png")" = "150 213" ] || { echo "FAIL: idle sheet is $(png_size "$TMP/idle.png")"; fails=$((fails + 1)); }

# glTF through the target path; smooth override on a unit
expect 0 preview "$SRC/tests/data/gltf/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf" --out "$TMP/cube.gif" --size 64x64 --fps 5
[ "$(gif_frames "$TMP/cube.gif")" -gt 5 ] || { echo "FAIL: cube.gif has too few frames"; fails=$((fails + 1)); }
expect 0 preview "$SRC/assets/demo/wing" --anim Flap --interpolation smooth --out "$TMP/flap.png" --time 0.45 --size 64x64

# glTF node animation (BoxAnimated moves and turns a box; no morph targets):
# pictures at two times differ, so node transforms follow the animation
B=$SRC/tests/data/gltf/BoxAnimated/glTF-Binary/BoxAnimated.glb
expect 0 preview "$B" --out "$TMP/box0.png" --time 0 --size 64x64
expect 0 preview "$B" --out "$TMP/box1.png" --time 1.5 --size 64x64
cmp -s "$TMP/box0.png" "$TMP/box1.png" && { echo "FAIL: BoxAnimated does not move"; fails=$((fails + 1)); }

# Skinned glTF (morph then skin in the vertex shader): RiggedSimple
# bends at 1.1 s, so pictures at two times differ; the Fox (no indices, no
# normals) covers a good part of the picture above the label. python3 (zlib)
# decodes the PNG: `covered` prints how many pixels of the top 3/4 (above the
# label) differ from the corner (background) and a digest of that region.
covered() {
    python3 - "$1" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
w, h, depth, ctype = struct.unpack('>IIBB', d[16:26])
assert depth == 8 and ctype in (2, 6)
bpp = 3 if ctype == 2 else 4
raw, i = b'', 8
while i < len(d):
    n, t = struct.unpack('>I4s', d[i:i + 8])
    if t == b'IDAT':
        raw += d[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(raw)
stride, rows, prev = w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)
        line[x] = (line[x] + (0, a, b, (a + b) // 2, pr)[f]) & 255
    rows.append(line)
    prev = line
bg, top = bytes(rows[0][:3]), rows[:h * 3 // 4]
print(sum(bytes(r[x * bpp:x * bpp + 3]) != bg for r in top for x in range(w)),
      zlib.crc32(b''.join(bytes(r) for r in top)))
PY
}
R=$SRC/tests/data/gltf/RiggedSimple/glTF-Binary/RiggedSimple.glb
expect 0 preview "$R" --out "$TMP/rig0.png" --time 0 --size 64x64
expect 0 preview "$R" --out "$TMP/rig1.png" --time 1.1 --size 64x64
a=$(covered "$TMP/rig0.png"); b=$(covered "$TMP/rig1.png")
[ -n "$a" ] && [ "${a#* }" != "${b#* }" ] || { echo "FAIL: RiggedSimple does not bend ($a / $b)"; fails=$((fails + 1)); }
expect 0 preview "$SRC/tests/data/gltf/Fox/glTF-Binary/Fox.glb" --out "$TMP/fox.png" --time 1 --size 64x64
n=$(covered "$TMP/fox.png"); n=${n%% *}
[ "${n:-0}" -gt 300 ] || { echo "FAIL: the fox covers $n pixels of 64x48"; fails=$((fails + 1)); }

# --beside: the same times twice, linear on the left and smooth on the right,
# so the picture is twice as wide; at a mid-blend time the halves differ
expect 0 preview "$SRC/assets/demo/wing" --anim Flap --interpolation linear --beside smooth \
    --out "$TMP/flap2.png" --time 0.45 --size 64x48
[ "$(png_size "$TMP/flap2.png")" = "128 48" ] || { echo "FAIL: flap2.png is $(png_size "$TMP/flap2.png")"; fails=$((fails + 1)); }
expect 0 preview "$SRC/assets/demo/wing" --anim Flap --interpolation linear --beside smooth \
    --sheet --fps 4 --size 40x30 --out "$TMP/flap2_sheet.png"
# cells 80 wide hold (80 - 4) / 6 = 12 characters a line: "Flap 1>2 w0.00
# linear | Flap 1>2 w0.00 smooth" wraps to 4 lines, band 4 x 9 + 4 = 40
[ "$(png_size "$TMP/flap2_sheet.png")" = "240 140" ] || { echo "FAIL: flap2 sheet is $(png_size "$TMP/flap2_sheet.png")"; fails=$((fails + 1)); }
expect 2 preview "$SRC/assets/demo/wing" --beside curvy
has "$err" "--beside wants linear, step or smooth"
expect 2 preview "$SRC/tests/data/gltf/SimpleMorph/glTF/SimpleMorph.gltf" --beside smooth
has "$err" "are for unit folders"

# default output name: NAME_ANIM.gif in the current folder
(cd "$TMP" && "$TOOL" preview "$K" --anim Idle --size 32x32 --fps 2 >/dev/null 2>&1)
[ -f "$TMP/knight_Idle.gif" ] || { echo "FAIL: no default knight_Idle.gif"; fails=$((fails + 1)); }

# errors: usage (2) and invalid input (1), with clear messages
expect 2 preview
has "$err" "PATH is missing"
expect 2 preview "$K" --size 10x10
has "$err" "--size wants WxH"
expect 2 preview "$K" --size big
expect 2 preview "$K" --fps 0
has "$err" "--fps"
expect 2 preview "$K" --seconds -1
expect 2 preview "$K" --out "$TMP/x.jpg"
has "$err" ".gif or .png"
expect 2 preview "$K" --sheet --out "$TMP/x.gif"
has "$err" "--sheet writes a PNG"
expect 2 preview "$K" --interpolation cubic
has "$err" "linear, step or smooth"
expect 2 preview "$K" --bogus
has "$err" "unknown option"
expect 2 preview "$K" --anim Dance --out "$TMP/x.png"
has "$err" "no animation 'Dance'"
has "$err" "Walk"
expect 1 preview "$TMP/missing"
has "$err" "no such file or folder"
expect 1 preview "$SRC/assets/demo" --out "$TMP/x.png"
has "$err" "not a unit folder"
printf 'not a model' > "$TMP/notes.txt"
expect 1 preview "$TMP/notes.txt"
has "$err" "not a unit folder or a .gltf/.glb file"
printf '{"asset": {"version": "1.0"}}' > "$TMP/old.gltf"
expect 1 preview "$TMP/old.gltf"
has "$err" "old.gltf"
# an output folder that does not exist: error, and nothing left behind
expect 1 preview "$K" --out "$TMP/nowhere/x.png" --size 32x32
has "$err" "nowhere/x.png"
[ ! -e "$TMP/x.png" ] || { echo "FAIL: a failed run left x.png"; fails=$((fails + 1)); }
ls "$TMP" | grep -q tmp && { echo "FAIL: a temporary file was left: $(ls "$TMP")"; fails=$((fails + 1)); }

# default output: the current folder, named after the unit's real name, even
# for "knight/" (tab completion) and "." (inside the unit)
mkdir -p "$TMP/cwd" && cp -r "$K" "$TMP/cwd/knight"
( cd "$TMP/cwd" && "$TOOL" preview knight/ --size 32x32 --seconds 0.1 >/dev/null 2>&1 )
[ -f "$TMP/cwd/knight_Idle.gif" ] || { echo "FAIL: preview knight/ did not write ./knight_Idle.gif: $(ls -A "$TMP/cwd" "$TMP/cwd/knight" | grep gif)"; fails=$((fails + 1)); }
( cd "$TMP/cwd/knight" && "$TOOL" preview . --size 32x32 --seconds 0.1 >/dev/null 2>&1 )
[ -f "$TMP/cwd/knight/knight_Idle.gif" ] || { echo "FAIL: preview . did not write knight_Idle.gif"; fails=$((fails + 1)); }
ls -A "$TMP/cwd/knight" | grep -q '^[._]' && { echo "FAIL: hidden or unnamed output: $(ls -A "$TMP/cwd/knight")"; fails=$((fails + 1)); }
# a typo in animation.cfg: preview still draws the unit and names the line
printf 'FrameTiem Idle 100\n' > "$TMP/cwd/knight/animation.cfg"
expect 0 preview "$TMP/cwd/knight" --size 32x32 --out "$TMP/typo.png"
has "$err" "animation.cfg:1: warning: unknown directive 'FrameTiem'"
# GIF delays add up to the animation's real length: Walk is 6 x 120 = 720 ms,
# at 20 fps 15 frames whose delays sum to 72 hundredths (not 15 x 5 = 75)
gif_delay_sum() { od -An -tu1 -v "$1" | tr -s ' \n' '  ' | awk '{for(i=1;i+5<=NF;i++) if($i==33&&$(i+1)==249&&$(i+2)==4) s+=$(i+4)+256*$(i+5)} END{print s}'; }
[ "$(gif_delay_sum "$TMP/run.gif")" = "72" ] || { echo "FAIL: run.gif lasts $(gif_delay_sum "$TMP/run.gif") cs, expected 72"; fails=$((fails + 1)); }
[ "$(gif_delay_sum "$TMP/walk.gif")" = "70" ] || { echo "FAIL: walk.gif lasts $(gif_delay_sum "$TMP/walk.gif") cs, expected 70"; fails=$((fails + 1)); }
# --time with a GIF is where it starts, not ignored
expect 0 preview "$K" --anim Walk --out "$TMP/t0.gif" --size 48x48 --fps 10 --seconds 0.1
expect 0 preview "$K" --anim Walk --out "$TMP/t3.gif" --size 48x48 --fps 10 --seconds 0.1 --time 0.3
cmp -s "$TMP/t0.gif" "$TMP/t3.gif" && { echo "FAIL: --time did not move the GIF's start"; fails=$((fails + 1)); }
# png.py FILE fill|pixel X Y: decodes an 8-bit RGB(A) PNG (all five filters)
cat > "$TMP/png.py" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat, w, h = 8, b'', 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        bpp = {6: 4, 2: 3}[ctype]
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (w * bpp + 1)], bytearray(raw[y * (w * bpp + 1) + 1:(y + 1) * (w * bpp + 1)])
    for x in range(len(line)):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)
        line[x] = (line[x] + [0, a, b, (a + b) // 2, pr][f]) & 255
    rows.append(line); prev = line
if sys.argv[2] == 'hues': # pixels clearly red, clearly green
    px = [r[x * bpp:x * bpp + 3] for r in rows for x in range(w)]
    print(sum(1 for p in px if p[0] > 2 * p[1] + 20 and p[0] > 2 * p[2] + 20),
          sum(1 for p in px if p[1] > 2 * p[0] + 20 and p[1] > 2 * p[2] + 20))
    sys.exit(0)
if sys.argv[2] == 'pixel':
    x, y = int(sys.argv[3]), int(sys.argv[4])
    print(*rows[y][x * bpp:x * bpp + 3])
    sys.exit(0)
bg = rows[5][5 * bpp:5 * bpp + 3]
xs, ys = [], []
for y in range(1, 200):
    for x in range(1, 200):
        px = rows[y][x * bpp:x * bpp + 3]
        if max(abs(px[k] - bg[k]) for k in range(3)) > 12:
            xs.append(x); ys.append(y)
print(int(100 * max(max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) / 199))
PY
# sheets frame the model tightly: in the first 200x200 cell of Walk the
# pixels that are not background span >= 70 % of the cell (decoded here)
expect 0 preview "$K" --anim Walk --sheet --size 200x200 --out "$TMP/walk_sheet.png"
if command -v python3 >/dev/null; then
    fill=$(python3 "$TMP/png.py" "$TMP/walk_sheet.png" fill)
    [ "${fill:-0}" -ge 70 ] || { echo "FAIL: the knight fills $fill % of its sheet cell, expected >= 70"; fails=$((fails + 1)); }
fi
# a glTF file without animations: one picture, not 12 equal cells
expect 0 preview "$SRC/tests/data/gltf/MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf" --sheet --size 64x64 --out "$TMP/static.png"
[ "$(png_size "$TMP/static.png" | cut -d' ' -f1)" = "64" ] || { echo "FAIL: a static glTF sheet is $(png_size "$TMP/static.png") wide"; fails=$((fails + 1)); }
# --camera and --zoom change the picture; bad values are usage errors
expect 0 preview "$K" --out "$TMP/cam0.png" --size 64x64
expect 0 preview "$K" --out "$TMP/cam1.png" --size 64x64 --camera 90,30
expect 0 preview "$K" --out "$TMP/zoom.png" --size 64x64 --zoom 2
cmp -s "$TMP/cam0.png" "$TMP/cam1.png" && { echo "FAIL: --camera changed nothing"; fails=$((fails + 1)); }
cmp -s "$TMP/cam0.png" "$TMP/zoom.png" && { echo "FAIL: --zoom changed nothing"; fails=$((fails + 1)); }
expect 2 preview "$K" --camera 10
has "$err" "--camera wants YAW,PITCH"
expect 2 preview "$K" --camera 0,95
expect 2 preview "$K" --zoom 0
# materials: the .mtl's Kd of the material the frames use is the colour drawn
# (the knight's torso is in the middle of the picture at the default camera)
cp -r "$K" "$TMP/red"
for f in "$TMP"/red/*.obj; do { echo "mtllib knight.mtl"; echo "usemtl steel"; cat "$f"; } > "$f.n" && mv "$f.n" "$f"; done
printf 'newmtl cloth\nKd 0 1 0\n\nnewmtl steel\nKd 0.9 0.1 0.1\n' > "$TMP/red/knight.mtl"
expect 0 preview "$TMP/red" --out "$TMP/red.png" --size 160x160
expect 0 preview "$K" --out "$TMP/grey.png" --size 160x160
if command -v python3 >/dev/null; then
    read -r r g b < <(python3 "$TMP/png.py" "$TMP/red.png" pixel 80 70)
    [ "$r" -gt $((2 * g)) ] && [ "$r" -gt $((2 * b)) ] || { echo "FAIL: the Kd 0.9 0.1 0.1 knight is $r $g $b in the middle"; fails=$((fails + 1)); }
    read -r r g b < <(python3 "$TMP/png.py" "$TMP/grey.png" pixel 80 70)
    [ "$r" -lt $((2 * g)) ] || { echo "FAIL: the plain knight is $r $g $b in the middle"; fails=$((fails + 1)); }
fi
# glTF materials: MorphPrimitivesTest's two primitives are red and green
expect 0 preview "$SRC/tests/data/gltf/MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf" --out "$TMP/mp.png" --size 96x96
if command -v python3 >/dev/null; then
    read -r red green < <(python3 "$TMP/png.py" "$TMP/mp.png" hues)
    [ "$red" -gt 200 ] && [ "$green" -gt 50 ] || { echo "FAIL: MorphPrimitivesTest has $red red and $green green pixels"; fails=$((fails + 1)); }
fi
# --grid: a ground grid, drawn under the feet (the picture changes)
expect 0 preview "$K" --out "$TMP/grid.png" --size 64x64 --grid
cmp -s "$TMP/cam0.png" "$TMP/grid.png" && { echo "FAIL: --grid changed nothing"; fails=$((fails + 1)); }
finish
