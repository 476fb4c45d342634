#!/bin/bash
# Textures in preview: a unit whose .mtl has a map_Kd and glTF files with a
# baseColorTexture (an embedded bufferView PNG and an external .png) show
# both colours of a red/green checker (2x2 squares of 8x8 pixels); without the texture they do not.
# python3 (zlib) makes the checker and the glTF files and decodes the
# pictures. Exits 77 (skipped) without an OpenGL 3.3 context or python3.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }

cat > "$TMP/tex.py" <<'PY'
import base64, json, struct, sys, zlib

def png(w, h, rows):  # rows: lists of (r, g, b, a)
    raw = b''.join(b'\0' + bytes(c for px in row for c in px) for row in rows)
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))

R, G = (255, 0, 0, 255), (0, 255, 0, 255)
CHECKER = png(16, 16, [[(R if (x < 8) == (y < 8) else G) for x in range(16)] for y in range(16)])

def decode(path):
    d = open(path, 'rb').read()
    w, h, depth, ctype = struct.unpack('>IIBB', d[16:26])
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
    return [(r[x * bpp], r[x * bpp + 1], r[x * bpp + 2]) for r in rows for x in range(w)]

def gltf(path, external):
    pos = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    uv = [(0, 1), (1, 1), (1, 0), (0, 0)]  # glTF: v = 0 at the image's top
    data = b''.join(struct.pack('<3f', *p) for p in pos) + b''.join(struct.pack('<2f', *t) for t in uv)
    data += struct.pack('<6H', 0, 1, 2, 0, 2, 3) + b'\0\0'
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
             {"buffer": 0, "byteOffset": 80, "byteLength": 12}]
    if external:
        image = {"uri": "checker%20tex.png"}  # percent-encoded, as URIs are
        open(path.rsplit('/', 1)[0] + '/checker tex.png', 'wb').write(CHECKER)
    else:
        views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(CHECKER)})
        data += CHECKER
        image = {"bufferView": 3, "mimeType": "image/png"}
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
           "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
           "textures": [{"source": 0}], "images": [image],
           "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
           "bufferViews": views,
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
                         {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                         {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}]}
    json.dump(doc, open(path, 'w'))

cmd = sys.argv[1]
if cmd == 'checker':
    open(sys.argv[2], 'wb').write(CHECKER)
elif cmd == 'gltf':
    gltf(sys.argv[2], sys.argv[3] == 'external')
elif cmd == 'hues':  # red pixels, green pixels (in % of the picture)
    px = decode(sys.argv[2])
    red = sum(r > 80 and g < r // 3 and b < r // 3 for r, g, b in px)
    green = sum(g > 80 and r < g // 3 and b < g // 3 for r, g, b in px)
    print(100 * red // len(px), 100 * green // len(px))
PY

# hues FILE MIN: both checker colours cover at least MIN % of the picture
hues() {
    read -r red green < <(python3 "$TMP/tex.py" hues "$1")
    [ "${red:-0}" -ge "$2" ] && [ "${green:-0}" -ge "$2" ] || { echo "FAIL: $1 has $red % red and $green % green, expected >= $2 each"; fails=$((fails + 1)); }
}
# no_checker FILE: neither colour shows
no_checker() {
    read -r red green < <(python3 "$TMP/tex.py" hues "$1")
    [ "${red:-0}" -eq 0 ] && [ "${green:-0}" -eq 0 ] || { echo "FAIL: $1 has $red % red and $green % green without a texture"; fails=$((fails + 1)); }
}

# a unit: a quad facing the camera, OBJ texcoords (v up), map_Kd with an
# option before the file name and no Kd (white, so the texture shows as is)
U=$TMP/quad
mkdir -p "$U"
python3 "$TMP/tex.py" checker "$U/checker.png"
for n in 1 2; do
    printf 'mtllib quad.mtl\nusemtl checker\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nf 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n' > "$U/Wave_$n.obj"
done
printf 'newmtl checker\nmap_Kd -s 1 1 1 checker.png\n' > "$U/quad.mtl"
out=$("$TOOL" preview "$U" --out "$TMP/probe.png" --size 32x32 2>&1)
if [ $? -ne 0 ] && printf '%s' "$out" | grep -q "OpenGL\|EGL"; then
    echo "skipped: $out"; exit 77
fi
expect 0 preview "$U" --out "$TMP/unit.png" --size 96x96 --camera 0,0
hues "$TMP/unit.png" 8
# the unit packed: its material is a glTF material with the texture
# embedded; preview draws it as the folder's (and reads no frame file,
# which a packed unit does not have: nothing on stderr)
expect 0 pack "$U" -o "$TMP/quad.glb" --quiet
expect 0 preview "$TMP/quad.glb" --out "$TMP/packed.png" --size 96x96 --camera 0,0
[ -z "$err" ] || { echo "FAIL: preview of a packed unit says: $err"; fails=$((fails + 1)); }
hues "$TMP/packed.png" 8
# no texture: the same quad in the default colour
printf 'newmtl checker\nKd 0.8 0.8 0.8\n' > "$U/quad.mtl"
expect 0 preview "$U" --out "$TMP/plain.png" --size 96x96 --camera 0,0
no_checker "$TMP/plain.png"
# a texture that is not a PNG: drawn without it, with a warning
printf 'newmtl checker\nmap_Kd checker.jpg\n' > "$U/quad.mtl"
printf '\377\330\377\340 not really' > "$U/checker.jpg"
expect 0 preview "$U" --out "$TMP/jpeg.png" --size 96x96 --camera 0,0
has "$err" "texture not drawn: a JPEG image"
no_checker "$TMP/jpeg.png"

# glTF: the texture in a bufferView, then in a file beside the .gltf
python3 "$TMP/tex.py" gltf "$TMP/embedded.gltf" embedded
expect 0 preview "$TMP/embedded.gltf" --out "$TMP/embedded.png" --size 96x96 --camera 0,0
hues "$TMP/embedded.png" 8
python3 "$TMP/tex.py" gltf "$TMP/external.gltf" external
expect 0 preview "$TMP/external.gltf" --out "$TMP/external.png" --size 96x96 --camera 0,0
hues "$TMP/external.png" 8
cmp -s "$TMP/embedded.png" "$TMP/external.png" || { echo "FAIL: the embedded and the external texture draw differently"; fails=$((fails + 1)); }
# a still model (no animations): a GIF of one frame
expect 0 preview "$TMP/embedded.gltf" --out "$TMP/still.gif" --size 32x32
frames=$(od -An -tx1 -v "$TMP/still.gif" | tr -d '\n' | tr -s ' ' | grep -o ' 21 f9 04' | wc -l)
[ "$frames" = "1" ] || { echo "FAIL: a still glTF gives a GIF of $frames frames"; fails=$((fails + 1)); }
# the external file gone: a warning, the quad in its base colour
rm "$TMP/checker tex.png"
expect 0 preview "$TMP/external.gltf" --out "$TMP/gone.png" --size 96x96 --camera 0,0
has "$err" "texture not drawn"
no_checker "$TMP/gone.png"
finish
