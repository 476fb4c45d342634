#version 330 core
// Skinned target path: the morph of morph.vert (out = base + sum_i w_i *
// delta_i), then linear blend skinning (glTF 2.0 section 3.7.3): with
// M = sum_k w_k * J[joint_k], position' = M * (p, 1), normal' and
// tangent'.xyz = normalize(mat3(M) * v), tangent w kept; as mk_skin_apply.
// Joint matrices, joint indices and weights live in buffer textures, so
// neither the joint count nor the influences per vertex are baked in.
layout(location = 0) in vec3 a_position0;
layout(location = 4) in vec3 a_normal0;
layout(location = 8) in vec4 a_tangent0;
layout(location = 12) in vec2 a_texcoord; // (0, 0) when not uploaded

uniform mat4 u_model;
uniform mat4 u_view_projection;
uniform samplerBuffer u_deltas;       // R32F morph deltas (morph.vert)
uniform isamplerBuffer u_active;      // RGBA32I active targets (morph.vert)
uniform int u_active_count;
uniform samplerBuffer u_joints;       // RGBA32F: 4 texels (columns) per joint matrix
uniform isamplerBuffer u_influence_joints;  // R32I: u_influence_count per vertex
uniform samplerBuffer u_influence_weights;  // R32F: the same layout
uniform int u_influence_count;

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
    n = safe_normalize(n);
    t = safe_normalize(t);
    mat4 m = mat4(0.0);
    int first = gl_VertexID * u_influence_count;
    for (int k = 0; k < u_influence_count; k++) {
        float w = texelFetch(u_influence_weights, first + k).r;
        int j = 4 * texelFetch(u_influence_joints, first + k).r;
        m += w * mat4(texelFetch(u_joints, j), texelFetch(u_joints, j + 1),
                      texelFetch(u_joints, j + 2), texelFetch(u_joints, j + 3));
    }
    p = (m * vec4(p, 1.0)).xyz;
    tf_position = p;
    tf_normal = safe_normalize(mat3(m) * n);
    tf_tangent = vec4(safe_normalize(mat3(m) * t), a_tangent0.w);
    vec4 world = u_model * vec4(p, 1.0);
    v_world = world.xyz;
    v_texcoord = a_texcoord;
    v_normal = mat3(u_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
