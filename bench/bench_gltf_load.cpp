// .glb loading speed: morphkit's mk_gltf_load against tinygltf's
// LoadBinaryFromFile on the same files, in ms and MB/s of file. The files are
// written by the bench to a temp folder:
//   small    an AnimatedMorphCube-sized cube: 24 vertices (POSITION, NORMAL,
//            TANGENT), 2 targets with all three deltas, a 127-key weights
//            animation;
//   1M       a 1000 x 1000 vertex grid (POSITION, NORMAL, TEXCOORD_0, u32
//            indices, ~2M triangles) with 2 POSITION targets;
//   20k x 64 a 20,000-vertex grid with 64 targets (POSITION and NORMAL deltas).
// Both loaders read the file from the page cache and check what they check
// (morphkit: every accessor range, every index value). Best of N runs.
// `--quick`: the small file only, one run (a CTest smoke test).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include <tiny_gltf.h>

#include "bench_common.h"
#include "morphkit/gltf.h"

namespace
{

void die(const char *what)
{
    fprintf(stderr, "bench_gltf_load: %s\n", what);
    exit(1);
}

// A .glb under construction: one BIN buffer, bufferViews and accessors appended.
struct glb_writer {
    std::vector<uint8_t> bin;
    std::string views, accessors;
    int view_count = 0, accessor_count = 0;

    int add_view(const void *data, size_t size, int target)
    {
        while (bin.size() % 4)
            bin.push_back(0);
        size_t off = bin.size();
        bin.insert(bin.end(), (const uint8_t *)data, (const uint8_t *)data + size);
        char buf[160];
        snprintf(buf, sizeof buf, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}",
                 view_count ? "," : "", off, size,
                 target == 34962 ? ",\"target\":34962" : target == 34963 ? ",\"target\":34963" : "");
        views += buf;
        return view_count++;
    }

    // A float accessor (type VEC2/VEC3/VEC4/SCALAR) over its own view; with
    // min/max for positions and animation inputs, as the spec requires.
    int add_floats(const std::vector<float> &v, int comps, const char *type, bool minmax,
                   int target = 34962)
    {
        int view = add_view(v.data(), v.size() * sizeof(float), target);
        size_t count = v.size() / (size_t)comps;
        std::string mm;
        if (minmax) {
            std::vector<float> lo(comps, 1e30f), hi(comps, -1e30f);
            for (size_t i = 0; i < v.size(); i++) {
                int c = (int)(i % (size_t)comps);
                lo[c] = v[i] < lo[c] ? v[i] : lo[c];
                hi[c] = v[i] > hi[c] ? v[i] : hi[c];
            }
            mm = ",\"min\":[";
            for (int c = 0; c < comps; c++)
                mm += (c ? "," : "") + std::to_string(lo[c]);
            mm += "],\"max\":[";
            for (int c = 0; c < comps; c++)
                mm += (c ? "," : "") + std::to_string(hi[c]);
            mm += "]";
        }
        char buf[160];
        snprintf(buf, sizeof buf, "%s{\"bufferView\":%d,\"componentType\":5126,\"count\":%zu,\"type\":\"%s\"",
                 accessor_count ? "," : "", view, count, type);
        accessors += buf + mm + "}";
        return accessor_count++;
    }

    int add_indices(const std::vector<uint32_t> &idx)
    {
        int view = add_view(idx.data(), idx.size() * 4, 34963);
        char buf[160];
        snprintf(buf, sizeof buf, "%s{\"bufferView\":%d,\"componentType\":5125,\"count\":%zu,\"type\":\"SCALAR\"}",
                 accessor_count ? "," : "", view, idx.size());
        accessors += buf;
        return accessor_count++;
    }

    // Writes the .glb: header, JSON chunk (space-padded), BIN chunk (zero-padded).
    void write(const char *path, const std::string &rest_of_json)
    {
        while (bin.size() % 4)
            bin.push_back(0);
        std::string json = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"bench_gltf_load\"}," +
                           rest_of_json + ",\"buffers\":[{\"byteLength\":" +
                           std::to_string(bin.size()) + "}],\"bufferViews\":[" + views +
                           "],\"accessors\":[" + accessors + "]}";
        while (json.size() % 4)
            json += ' ';
        uint32_t total = (uint32_t)(12 + 8 + json.size() + 8 + bin.size());
        uint32_t header[3] = {0x46546C67u, 2, total};
        uint32_t jhead[2] = {(uint32_t)json.size(), 0x4E4F534Au};
        uint32_t bhead[2] = {(uint32_t)bin.size(), 0x004E4942u};
        FILE *f = fopen(path, "wb");
        if (!f)
            die("cannot write a temp file");
        bool ok = fwrite(header, 4, 3, f) == 3 && fwrite(jhead, 4, 2, f) == 2 &&
                  fwrite(json.data(), 1, json.size(), f) == json.size() &&
                  fwrite(bhead, 4, 2, f) == 2 && fwrite(bin.data(), 1, bin.size(), f) == bin.size();
        if (fclose(f) != 0 || !ok)
            die("cannot write a temp file");
    }
};

uint32_t rng = 12345;
float frand()
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f - 0.5f;
}

// A side x side vertex grid with `targets` morph targets (POSITION deltas,
// and NORMAL deltas when target_normals); uv and indices when big.
void write_grid(const char *path, int side, int targets, bool target_normals, bool uv,
                bool tangents, int anim_keys)
{
    glb_writer w;
    size_t vc = (size_t)side * side;
    std::vector<float> pos(vc * 3), nrm(vc * 3), tex(vc * 2), tan(vc * 4);
    for (size_t i = 0; i < vc; i++) {
        float x = (float)(i % (size_t)side) / (float)side, y = (float)(i / (size_t)side) / (float)side;
        pos[3 * i] = x, pos[3 * i + 1] = y, pos[3 * i + 2] = 0.05f * frand();
        nrm[3 * i] = 0, nrm[3 * i + 1] = 0, nrm[3 * i + 2] = 1;
        tex[2 * i] = x, tex[2 * i + 1] = y;
        tan[4 * i] = 1, tan[4 * i + 1] = 0, tan[4 * i + 2] = 0, tan[4 * i + 3] = 1;
    }
    std::vector<uint32_t> idx;
    idx.reserve((size_t)(side - 1) * (side - 1) * 6);
    for (int y = 0; y + 1 < side; y++)
        for (int x = 0; x + 1 < side; x++) {
            uint32_t a = (uint32_t)(y * side + x), b = a + 1, c = a + (uint32_t)side + 1,
                     d = a + (uint32_t)side;
            idx.insert(idx.end(), {a, b, c, a, c, d});
        }
    int ip = w.add_floats(pos, 3, "VEC3", true);
    int in = w.add_floats(nrm, 3, "VEC3", false);
    int it = uv ? w.add_floats(tex, 2, "VEC2", false) : -1;
    int itan = tangents ? w.add_floats(tan, 4, "VEC4", false) : -1;
    int ii = w.add_indices(idx);
    std::string tjson;
    for (int t = 0; t < targets; t++) {
        std::vector<float> d(vc * 3);
        for (float &v : d)
            v = 0.01f * frand();
        int tp = w.add_floats(d, 3, "VEC3", true);
        tjson += (t ? ",{\"POSITION\":" : "{\"POSITION\":") + std::to_string(tp);
        if (target_normals) {
            for (float &v : d)
                v = 0.1f * frand();
            tjson += ",\"NORMAL\":" + std::to_string(w.add_floats(d, 3, "VEC3", false));
        }
        if (tangents) {
            for (float &v : d)
                v = 0.1f * frand();
            tjson += ",\"TANGENT\":" + std::to_string(w.add_floats(d, 3, "VEC3", false));
        }
        tjson += "}";
    }
    std::string attrs = "{\"POSITION\":" + std::to_string(ip) + ",\"NORMAL\":" + std::to_string(in);
    if (uv)
        attrs += ",\"TEXCOORD_0\":" + std::to_string(it);
    if (tangents)
        attrs += ",\"TANGENT\":" + std::to_string(itan);
    attrs += "}";
    std::string weights = "[";
    for (int t = 0; t < targets; t++)
        weights += t ? ",0" : "0";
    weights += "]";
    std::string json = "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0,\"name\":\"grid\"}],"
                       "\"meshes\":[{\"name\":\"grid\",\"primitives\":[{\"attributes\":" +
                       attrs + ",\"indices\":" + std::to_string(ii) + ",\"targets\":[" + tjson +
                       "]}],\"weights\":" + weights + "}]";
    if (anim_keys > 0 && targets > 0) {
        std::vector<float> times((size_t)anim_keys), values((size_t)anim_keys * targets);
        for (int k = 0; k < anim_keys; k++)
            times[(size_t)k] = (float)k / 30.0f;
        for (float &v : values)
            v = frand() + 0.5f;
        int ti = w.add_floats(times, 1, "SCALAR", true, 0);
        int vo = w.add_floats(values, 1, "SCALAR", false, 0);
        json += ",\"animations\":[{\"name\":\"Square\",\"samplers\":[{\"input\":" + std::to_string(ti) +
                ",\"output\":" + std::to_string(vo) +
                "}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]";
    }
    w.write(path, json);
}

size_t file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open a temp file");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return (size_t)n;
}

template <class F> double best_of(int runs, F fn)
{
    double best = 1e30;
    for (int i = 0; i < runs; i++) {
        double t0 = mk_bench_now();
        fn();
        double t = mk_bench_now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

void run(const char *label, const char *path, int runs)
{
    double mb = (double)file_size(path) / 1e6;
    size_t mk_vertices = 0, tg_vertices = 0;
    double mk = best_of(runs, [&] {
        mk_gltf *g = nullptr;
        mk_error err;
        if (mk_gltf_load(path, nullptr, nullptr, &g, &err) != MK_OK)
            die(err.message);
        mk_vertices = g->accessors[g->meshes[0].primitives[0].position].count;
        mk_gltf_destroy(g);
    });
    double tg = best_of(runs, [&] {
        tinygltf::TinyGLTF loader;
        tinygltf::Model model;
        std::string err, warn;
        if (!loader.LoadBinaryFromFile(&model, &err, &warn, path))
            die(err.c_str());
        tg_vertices = model.accessors[(size_t)model.meshes[0].primitives[0].attributes["POSITION"]].count;
    });
    if (mk_vertices != tg_vertices)
        die("the loaders disagree on the vertex count");
    printf("%-9s %8.2f MB %8zu vertices: morphkit %9.3f ms (%7.0f MB/s)  tinygltf %9.3f ms "
           "(%6.0f MB/s)  ratio %.1fx\n",
           label, mb, mk_vertices, mk * 1e3, mb / mk, tg * 1e3, mb / tg, tg / mk);
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = mk_bench_quick(argc, argv) != 0;
    char dir[] = "/tmp/mk_bench_gltf_XXXXXX";
    if (!mkdtemp(dir))
        die("cannot create a temp folder");
    std::string small = std::string(dir) + "/small.glb", big = std::string(dir) + "/grid_1m.glb",
                many = std::string(dir) + "/grid_20k_64t.glb";
    // The cube: 24 vertices is a 5 x 5 grid minus one; 5 x 5 keeps the shape simple.
    write_grid(small.c_str(), 5, 2, true, false, true, 127);
    run("small", small.c_str(), quick ? 1 : 200);
    if (!quick) {
        write_grid(big.c_str(), 1000, 2, false, true, false, 0);
        run("1M", big.c_str(), 10);
        write_grid(many.c_str(), 142, 64, true, false, false, 127); // 20,164 vertices
        run("20k x 64", many.c_str(), 10);
    }
    if (getenv("MK_BENCH_KEEP")) { printf("kept %s\n", dir); return 0; }
    unlink(small.c_str());
    unlink(big.c_str());
    unlink(many.c_str());
    rmdir(dir);
    return 0;
}
