#version 330 core
// Target path (glTF morph targets): out = base + sum_i w_i * delta_i, with
// normals and tangents re-normalized (tangent w kept), glTF 2.0 section 3.7.2.2.
// Deltas live in one float buffer texture; the active targets are listed in
// a second one, so neither the target count nor the active count is baked
// into the shader.
layout(location = 0) in vec3 a_position0;
layout(location = 4) in vec3 a_normal0;
layout(location = 8) in vec4 a_tangent0;
layout(location = 12) in vec2 a_texcoord; // (0, 0) when not uploaded

uniform mat4 u_model;
uniform mat4 u_view_projection;
// R32F: delta floats, one float3 per vertex and attribute.
uniform samplerBuffer u_deltas;
// RGBA32I, one texel per active target: float3-element offsets of its
// POSITION, NORMAL and TANGENT deltas in u_deltas (-1: absent) and the
// weight's bits.
uniform isamplerBuffer u_active;
uniform int u_active_count;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
out vec3 tf_position;
out vec3 tf_normal;
out vec4 tf_tangent;

vec3 delta(int element)
{
    int i = 3 * (element + gl_VertexID);
    return vec3(texelFetch(u_deltas, i).r, texelFetch(u_deltas, i + 1).r,
                texelFetch(u_deltas, i + 2).r);
}

vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    vec3 p = a_position0;
    vec3 n = a_normal0;
    vec3 t = a_tangent0.xyz;
    for (int k = 0; k < u_active_count; k++) {
        ivec4 entry = texelFetch(u_active, k);
        float w = intBitsToFloat(entry.w);
        if (entry.x >= 0)
            p += w * delta(entry.x);
        if (entry.y >= 0)
            n += w * delta(entry.y);
        if (entry.z >= 0)
            t += w * delta(entry.z);
    }
    tf_position = p;
    tf_normal = safe_normalize(n);
    tf_tangent = vec4(safe_normalize(t), a_tangent0.w);
    vec4 world = u_model * vec4(p, 1.0);
    v_world = world.xyz;
    v_texcoord = a_texcoord;
    v_normal = mat3(u_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
