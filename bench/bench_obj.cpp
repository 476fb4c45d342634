// OBJ reading speed: morphkit against tinyobjloader on the same bytes, in MB/s
// of OBJ text. Files are grids as exporters write them (v, vt, vn with 6
// decimals, quads `f a/a/a b/b/b c/c/c d/d/d`), written to a temp folder.
// morphkit is timed parsing from memory and loading the file; tinyobjloader
// reading the file and an istream of the bytes, triangulating. Best of
// several runs. `--quick`: a tiny file, one run (a smoke test).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <tiny_obj_loader.h>

#include "bench_common.h"
#include "morphkit/obj.h"

namespace
{

// A side x side grid of vertices with a gentle height field.
std::string make_grid(int side)
{
    std::string s;
    s.reserve((size_t)side * side * 180);
    char line[160];
    s += "# bench grid\no grid\n";
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            double fx = x * 0.01, fy = y * 0.01;
            double z = 0.05 * ((x * 7 + y * 13) % 17) / 17.0;
            snprintf(line, sizeof line, "v %.6f %.6f %.6f\n", fx, fy, z);
            s += line;
        }
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            snprintf(line, sizeof line, "vt %.6f %.6f\n", x / (double)(side - 1),
                     y / (double)(side - 1));
            s += line;
        }
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            double nx = 0.1 * ((x % 5) - 2), ny = 0.1 * ((y % 3) - 1);
            snprintf(line, sizeof line, "vn %.6f %.6f %.6f\n", nx, ny, 0.948683);
            s += line;
        }
    s += "usemtl grid\ns 1\n";
    for (int y = 0; y + 1 < side; y++)
        for (int x = 0; x + 1 < side; x++) {
            int a = y * side + x + 1, b = a + 1, c = a + side + 1, d = a + side;
            snprintf(line, sizeof line, "f %d/%d/%d %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, b, b, b,
                     c, c, c, d, d, d);
            s += line;
        }
    return s;
}

[[noreturn]] void die(const char *what)
{
    fprintf(stderr, "bench_obj: %s\n", what);
    exit(1);
}

struct result {
    double seconds = 1e30;
    size_t triangles = 0;
};

template <class F> result best_of(int runs, F fn)
{
    result r;
    for (int i = 0; i < runs; i++) {
        double t0 = mk_bench_now();
        size_t tris = fn();
        double t = mk_bench_now() - t0;
        if (t < r.seconds)
            r.seconds = t;
        r.triangles = tris;
    }
    return r;
}

size_t mk_from_memory(const std::string &text)
{
    mk_obj *o;
    mk_error err;
    if (mk_obj_parse(text.data(), text.size(), "grid.obj", nullptr, nullptr, &o, &err) != MK_OK)
        die(err.message);
    size_t n = o->triangle_count;
    mk_obj_destroy(o);
    return n;
}

size_t mk_from_memory_mesh(const std::string &text)
{
    mk_obj *o;
    mk_mesh *m;
    mk_error err;
    if (mk_obj_parse(text.data(), text.size(), "grid.obj", nullptr, nullptr, &o, &err) != MK_OK ||
        mk_obj_build_mesh(o, nullptr, &m, nullptr, &err) != MK_OK)
        die(err.message);
    size_t n = m->index_count / 3;
    mk_mesh_destroy(m);
    mk_obj_destroy(o);
    return n;
}

size_t mk_from_file(const std::string &path)
{
    mk_obj *o;
    mk_error err;
    if (mk_obj_load(path.c_str(), nullptr, nullptr, &o, &err) != MK_OK)
        die(err.message);
    size_t n = o->triangle_count;
    mk_obj_destroy(o);
    return n;
}

size_t tiny_count(const std::vector<tinyobj::shape_t> &shapes)
{
    size_t n = 0;
    for (const auto &s : shapes)
        n += s.mesh.num_face_vertices.size();
    return n;
}

size_t tiny_from_file(const std::string &path)
{
    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warn, err;
    if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), nullptr, true))
        die(err.c_str());
    return tiny_count(shapes);
}

size_t tiny_from_stream(std::istream &in)
{
    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warn, err;
    if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, nullptr, true))
        die(err.c_str());
    return tiny_count(shapes);
}

void run(const char *dir, int side, int runs)
{
    std::string text = make_grid(side);
    std::string path = std::string(dir) + "/grid_" + std::to_string(side) + ".obj";
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(text.data(), 1, text.size(), f) != text.size() || fclose(f) != 0)
        die("cannot write the grid file");
    double mb = (double)text.size() / 1e6;
    printf("grid %dx%d: %d vertices, %.1f MB, best of %d\n", side, side, side * side, mb, runs);

    result mem = best_of(runs, [&] { return mk_from_memory(text); });
    result mesh = best_of(runs, [&] { return mk_from_memory_mesh(text); });
    result load = best_of(runs, [&] { return mk_from_file(path); });
    result tfile = best_of(runs, [&] { return tiny_from_file(path); });
    result tstream;
    for (int i = 0; i < runs; i++) {
        std::istringstream in(text); // built outside the timed part
        result r = best_of(1, [&] { return tiny_from_stream(in); });
        if (r.seconds < tstream.seconds)
            tstream = r;
    }
    if (mem.triangles != tfile.triangles || mem.triangles != tstream.triangles ||
        mesh.triangles != mem.triangles || load.triangles != mem.triangles)
        die("the readers disagree on the triangle count");

    auto line = [&](const char *name, const result &r) {
        printf("  %-36s %8.1f MB/s  %9.3f ms\n", name, mb / r.seconds, r.seconds * 1e3);
    };
    line("morphkit mk_obj_parse (memory)", mem);
    line("morphkit parse + build_mesh (memory)", mesh);
    line("morphkit mk_obj_load (file)", load);
    line("tinyobjloader LoadObj (istream)", tstream);
    line("tinyobjloader LoadObj (file)", tfile);
    printf("  ratio memory: %.2fx   ratio file: %.2fx   (morphkit / tinyobjloader)\n",
           tstream.seconds / mem.seconds, tfile.seconds / load.seconds);
    unlink(path.c_str());
}

} // namespace

int main(int argc, char **argv)
{
    int quick = mk_bench_quick(argc, argv);
    const char *tmp = getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/mk_bench_obj_XXXXXX";
    std::vector<char> dir(templ.begin(), templ.end());
    dir.push_back('\0');
    if (!mkdtemp(dir.data()))
        die(strerror(errno));
    if (quick) {
        run(dir.data(), 8, 1);
    } else {
        run(dir.data(), 100, 20); // 10 k vertices
        run(dir.data(), 1000, 5); // 1 M vertices
    }
    rmdir(dir.data());
    return 0;
}
