#!/usr/bin/env python3
"""tests/gltf/reexpress.py: re-expresses an ff8diff export the way another
viewer might: axes mapped (viewer = P . game, P a signed permutation),
positions divided by a scale, joints renamed and their nodes reordered;
optionally one joint of one animation moved from one keyframe on, or every
translation stretched along the viewer's x by F (no axes and scale fit that).

usage: reexpress.py IN.glb OUT.glb --axes x,z,-y --scale 204.8 --seed 7
                    [--perturb ANIM NODE_NAME FRAME DELTA] [--stretch F]
Prints the renaming as JSON: {"old name": "new name", ...}.
"""
import json, random, struct, sys, argparse

ap = argparse.ArgumentParser()
ap.add_argument("src"); ap.add_argument("dst")
ap.add_argument("--axes", default="x,y,z"); ap.add_argument("--scale", type=float, default=1.0)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--perturb", nargs=4)
ap.add_argument("--stretch", type=float, default=1.0)
a = ap.parse_args()

data = open(a.src, "rb").read()
jlen = struct.unpack_from("<I", data, 12)[0]
doc = json.loads(data[20:20 + jlen])
bin_ = bytearray(data[28 + jlen:])

# viewer axis i = sign * game axis idx
axes = []
for w in a.axes.split(","):
    axes.append((-1.0 if w[0] == "-" else 1.0, "xyz".index(w[-1])))
P = [[0.0] * 3 for _ in range(3)]
for i, (s, j) in enumerate(axes):
    P[i][j] = s
det = (P[0][0] * (P[1][1] * P[2][2] - P[1][2] * P[2][1]) - P[0][1] * (P[1][0] * P[2][2] - P[1][2] * P[2][0])
       + P[0][2] * (P[1][0] * P[2][1] - P[1][1] * P[2][0]))

def vec(v): return [sum(P[i][k] * v[k] for k in range(3)) for i in range(3)]
def tr(v):
    w = [x / a.scale for x in vec(v)]
    return [w[0] * a.stretch, w[1], w[2]]
def rot(q): v = vec(q[:3]); return [det * v[0], det * v[1], det * v[2], q[3]]
def scl(s): return [s[axes[i][1]] for i in range(3)]

def view(acc):
    ac = doc["accessors"][acc]; bv = doc["bufferViews"][ac["bufferView"]]
    n = {"VEC3": 3, "VEC4": 4, "SCALAR": 1}[ac["type"]]
    return bv.get("byteOffset", 0) + ac.get("byteOffset", 0), ac["count"], n

def edit(acc, f, first=0):
    off, count, n = view(acc)
    for k in range(first, count):
        v = list(struct.unpack_from("<%df" % n, bin_, off + 4 * n * k))
        struct.pack_into("<%df" % n, bin_, off + 4 * n * k, *f(v))

fn = {"translation": tr, "rotation": rot, "scale": scl}
for anim in doc.get("animations", []):
    for ch in anim["channels"]:
        edit(anim["samplers"][ch["sampler"]]["output"], fn[ch["target"]["path"]])
for node in doc["nodes"]:
    for k in ("translation", "rotation", "scale"):
        if k in node: node[k] = fn[k](node[k])
if a.perturb:
    anim_name, node_name, frame, delta = a.perturb
    anim = next(x for x in doc["animations"] if x["name"] == anim_name)
    idx = next(i for i, n in enumerate(doc["nodes"]) if n.get("name") == node_name)
    ch = next(c for c in anim["channels"] if c["target"]["node"] == idx and c["target"]["path"] == "translation")
    d = float(delta)
    edit(anim["samplers"][ch["sampler"]]["output"], lambda v: [v[0] + d, v[1], v[2]], int(frame))

# Rename and reorder the nodes (the scene root stays first).
rng = random.Random(a.seed)
n = len(doc["nodes"])
order = list(range(1, n)); rng.shuffle(order); order = [0] + order  # new position -> old index
new_of = {old: new for new, old in enumerate(order)}
names = {}
nodes = []
for old in order:
    node = doc["nodes"][old]
    if "children" in node:
        node["children"] = [new_of[c] for c in node["children"]]
        rng.shuffle(node["children"])
    if node.get("name", "").count("bone_"):
        new = "J%04x" % rng.randrange(1 << 16)
        while new in names.values(): new = "J%04x" % rng.randrange(1 << 16)
        names[node["name"]] = new; node["name"] = new
    node.pop("extras", None)
    nodes.append(node)
doc["nodes"] = nodes
for sc in doc["scenes"]: sc["nodes"] = [new_of[i] for i in sc["nodes"]]
for anim in doc.get("animations", []):
    for ch in anim["channels"]: ch["target"]["node"] = new_of[ch["target"]["node"]]

js = json.dumps(doc).encode()
js += b" " * (-len(js) % 4)
out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(bin_))
out += struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(bin_), 0x004E4942) + bytes(bin_)
open(a.dst, "wb").write(out)
print(json.dumps(names))
