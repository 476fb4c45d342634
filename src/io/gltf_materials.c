/* glTF materials: what a viewer needs to show a file as its engine will,
 * the base colour factor and which texture holds the base colour (glTF 2.0
 * 5.19 material, 5.19.2 pbrMetallicRoughness). */
#include "gltf_internal.h"

static mk_status parse_material(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                const mk_gltf_path *path, mk_gltf_material *m)
{
    mk_status s = mk_gltf_json_object(c, item, path);
    if (s != MK_OK || (s = mk_gltf_json_string(c, item, "name", path, &m->name)) != MK_OK)
        return s;
    for (int k = 0; k < 4; k++)
        m->base_color_factor[k] = 1.0f; /* the spec's default: white, opaque */
    m->base_color_texture = MK_NONE;
    const mk_gltf_json_value *pbr = mk_gltf_json_get(c->json, item, "pbrMetallicRoughness");
    if (!pbr)
        return MK_OK;
    const mk_gltf_path pbr_path = {path, "pbrMetallicRoughness", MK_NONE};
    if ((s = mk_gltf_json_object(c, pbr, &pbr_path)) != MK_OK ||
        (s = mk_gltf_json_floats(c, pbr, "baseColorFactor", &pbr_path, m->base_color_factor, 4,
                                 NULL)) != MK_OK)
        return s;
    const mk_gltf_json_value *tex = mk_gltf_json_get(c->json, pbr, "baseColorTexture");
    if (!tex)
        return MK_OK;
    const mk_gltf_path tex_path = {&pbr_path, "baseColorTexture", MK_NONE};
    if ((s = mk_gltf_json_object(c, tex, &tex_path)) != MK_OK)
        return s;
    /* textures are not read: the index is kept as written */
    return mk_gltf_json_uint(c, tex, "index", &tex_path, true, 0, &m->base_color_texture);
}

mk_status mk_gltf_parse_materials(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "materials", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->materials = (mk_gltf_material *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_material));
    if (!g->materials)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("materials"), "out of memory");
    g->material_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "materials", i};
        if ((s = parse_material(c, item, &path, &g->materials[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
