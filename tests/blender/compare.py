"""Compares `morphkit sample --json` output with the positions Blender
evaluated (EXPECTED, written by the export scripts). Each sample's time t
is mapped to the Blender frame it shows from the frame times alone: with
frame k of ANIM starting at starts[k] seconds, a time between starts[k] and
starts[k+1] must show the linear blend of Blender's frames k and k+1 (frame
k exactly at starts[k]).
usage: blender -b --factory-startup --python-exit-code 1 --python compare.py --
       EXPECTED SAMPLE_JSON ANIM START0,START1,...,END|json TOLERANCE
(json: the starts are EXPECTED's "starts"; its "noblend" frames hold w = 0)"""
import json
import sys

expected_path, sample_path, anim, starts, tol = sys.argv[sys.argv.index("--") + 1:][:5]
tol = float(tol)
exp = json.load(open(expected_path))["animations"][anim]
starts = exp["starts"] if starts == "json" else [float(s) for s in starts.split(",")]
noblend = exp.get("noblend", [])  # frame indices shown without blending
frames = exp["frames"]
assert len(starts) == len(frames) + 1, "one start per frame plus the loop end"
samples = json.load(open(sample_path))["samples"]
worst, failures = 0.0, 0
for s in samples:
    t = float(s["time"])
    k = max(i for i in range(len(frames)) if starts[i] <= t + 1e-9)
    w = 0.0 if k in noblend else (t - starts[k]) / (starts[k + 1] - starts[k])
    a, b = frames[k], frames[(k + 1) % len(frames)]
    want = [(1 - w) * x + w * y for x, y in zip(a, b)]
    got = s["meshes"][0]["positions"]
    if len(got) != len(want):
        print(f"FAIL: {anim} t={t}: {len(got) // 3} vertices, Blender has {len(want) // 3}")
        failures += 1
        continue
    if s["animation"] != anim or s["frame"] != exp["first"] + k:
        print(f"FAIL: {anim} t={t}: shows {s['animation']} frame {s['frame']}, "
              f"expected frame {exp['first'] + k}")
        failures += 1
    err = max(abs(x - y) for x, y in zip(got, want))
    worst = max(worst, err)
    if err > tol:
        i = max(range(len(got)), key=lambda j: abs(got[j] - want[j]))
        print(f"FAIL: {anim} t={t} (frame {exp['first'] + k}, w {w:.3f}): v {i // 3 + 1} "
              f"differs by {err:.3g} (morphkit {got[i]}, Blender {want[i]})")
        failures += 1
print(f"{anim}: {len(samples)} samples, largest difference {worst:.3g} (tolerance {tol})")
sys.exit(1 if failures else 0)
