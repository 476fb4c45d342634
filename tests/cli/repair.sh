#!/bin/bash
# morphkit repair: a renumbered frame and a scrambled frame of the demo
# knight are put back exactly; the input is untouched; validate then finds
# nothing; a frame that is another mesh is reported and copied unchanged.
TOOL=$1 SRC=$2 TMP=$3
rm -rf "$TMP"; mkdir -p "$TMP"; . "$(dirname "$0")/common.inc"

K="$SRC/assets/demo/knight"
cp -r "$K" "$TMP/bad"
# Walk_3: every vertex renumbered (v lines reversed, faces follow)
awk -v N=152 '
$1 == "v" { v[++nv] = $0; next }
{ line[++nl] = $0 }
END {
  for (i = 1; i <= nl && line[i] ~ /^(#|o )/; i++) print line[i]
  first = i
  for (j = nv; j >= 1; j--) print v[j]
  for (i = first; i <= nl; i++) {
    if (line[i] !~ /^f /) { print line[i]; continue }
    n = split(line[i], c, " "); out = "f"
    for (j = 2; j <= n; j++) { split(c[j], p, "/"); out = out " " (N + 1 - p[1]) substr(c[j], length(p[1]) + 1) }
    print out
  }
}' "$K/Walk_3.obj" > "$TMP/bad/Walk_3.obj"
# Idle_3: v 3 and v 140 swapped (faces untouched)
awk 'NR == FNR { if ($1 == "v" && ++n == 3) a = $0; if ($1 == "v" && n == 140) b = $0; next }
     $1 == "v" { m++; if (m == 3) { print b; next } if (m == 140) { print a; next } } { print }' \
    "$K/Idle_3.obj" "$K/Idle_3.obj" > "$TMP/bad/Idle_3.obj"
cp -r "$TMP/bad" "$TMP/bad.orig"

expect 1 validate "$TMP/bad"
has "$out" "Walk_3.obj is the same mesh as Attack_1.obj with a different vertex order"
has "$out" "morphkit repair"

expect 0 repair "$TMP/bad" --out "$TMP/fixed"
has "$out" "Walk_3.obj: renumbered"
has "$out" "Idle_3.obj: scrambled: 2 vertices moved back"
has "$out" "2 of 15 frames repaired, 0 could not be repaired"
diff -r "$TMP/bad" "$TMP/bad.orig" > /dev/null || { echo "FAIL: the input folder changed"; fails=$((fails + 1)); }
ls -A "$TMP/fixed" | grep -q '^\.' && { echo "FAIL: temporary files left in the output"; fails=$((fails + 1)); }

expect 0 validate "$TMP/fixed"
has "$out" "ok: 3 animations, 15 frames, 152 vertices, 228 triangles, 0 warnings"

# the repaired frames hold the original numbers (9 significant digits of
# the same floats: equal to the 6-decimal originals within 5e-7)
for f in Walk_3 Idle_3; do
  paste -d' ' <(grep '^v ' "$K/$f.obj") <(grep '^v ' "$TMP/fixed/$f.obj") |
    awk -v f=$f '{ for (i = 2; i <= 4; i++) { d = $i - $(i + 4); if (d < 0) d = -d; if (d > 5e-7) bad++ } }
                 END { if (bad || NR != 152) { print "FAIL: " f " differs (" bad " values, " NR " lines)"; exit 1 } }' ||
    fails=$((fails + 1))
  # faces: the first frame's, exactly as the original frame has them
  diff <(grep '^f ' "$K/$f.obj") <(grep '^f ' "$TMP/fixed/$f.obj") > /dev/null ||
    { echo "FAIL: $f faces differ"; fails=$((fails + 1)); }
done
# other frames and files are copied byte for byte
cmp -s "$K/Walk_2.obj" "$TMP/fixed/Walk_2.obj" || { echo "FAIL: Walk_2 not copied"; fails=$((fails + 1)); }
cmp -s "$K/animation.cfg" "$TMP/fixed/animation.cfg" || { echo "FAIL: cfg not copied"; fails=$((fails + 1)); }

expect 0 repair --json "$TMP/bad" --out "$TMP/fixed2"
has "$out" '"repaired": 2, "failed": 0'
has "$out" '{"file": "Walk_3.obj", "action": "renumbered"'
has "$out" '{"file": "Idle_3.obj", "action": "unscrambled", "renumbered": false, "unscrambled": true, "moved": 2'

# a reused pose: the demo wing's Beat_1 holds Flap_1's positions; with its
# v lines reversed (a scramble of every vertex, faces untouched) it is given
# Flap_1's order, which is its own
W="$SRC/assets/demo/wing"
cp -r "$W" "$TMP/wing"
awk '$1 == "v" { v[++nv] = $0; at[nv] = NR } { line[NR] = $0 }
     END { k = nv; for (i = 1; i <= NR; i++) print (line[i] ~ /^v / ? v[k--] : line[i]) }' \
    "$W/Beat_1.obj" > "$TMP/wing/Beat_1.obj"
expect 1 validate "$TMP/wing" --strict
has "$out" "Beat_1.obj: likely vertex-order scramble"
expect 0 repair "$TMP/wing" --out "$TMP/wing.fixed"
has "$out" "Beat_1.obj: scrambled: the positions of Flap_1.obj in another order; given its order"
paste -d' ' <(grep '^v ' "$W/Beat_1.obj") <(grep '^v ' "$TMP/wing.fixed/Beat_1.obj") |
    awk '{ for (i = 2; i <= 4; i++) { d = $i - $(i + 4); if (d < 0) d = -d; if (d > 5e-7) bad++ } }
         END { if (bad || NR != 64) { print "FAIL: Beat_1 differs (" bad " values, " NR " lines)"; exit 1 } }' ||
    fails=$((fails + 1))
expect 0 repair --json "$TMP/wing" --out "$TMP/wing.fixed2"
has "$out" '"confidence": 1.000, "twin": "Flap_1.obj"}'

# a frame that is another mesh: reported, copied unchanged, exit 1
cp -r "$TMP/bad" "$TMP/other"
sed -i '0,/^f /s/^f [0-9]*/f 7/' "$TMP/other/Walk_5.obj"
expect 1 repair "$TMP/other" --out "$TMP/other.fixed"
has "$out" "Walk_5.obj: NOT repaired (left as it is)"
cmp -s "$TMP/other/Walk_5.obj" "$TMP/other.fixed/Walk_5.obj" || { echo "FAIL: Walk_5 not copied"; fails=$((fails + 1)); }

# --in-place keeps a backup of each changed file
cp -r "$TMP/bad" "$TMP/inplace"
expect 0 repair "$TMP/inplace" --in-place
cmp -s "$TMP/inplace/Walk_3.obj.bak" "$TMP/bad/Walk_3.obj" || { echo "FAIL: no backup"; fails=$((fails + 1)); }
expect 0 validate "$TMP/inplace"
has "$out" "0 warnings"

# usage
expect 2 repair "$TMP/bad"
expect 2 repair "$TMP/bad" --out "$TMP/bad"
has "$err" "use --in-place"
expect 2 repair --bogus "$TMP/bad" --out "$TMP/x"
expect 1 repair "$TMP/does-not-exist" --out "$TMP/x"
expect 0 repair --help
has "$out" "usage: morphkit repair"
expect 0 --help
has "$out" "repair"
finish
