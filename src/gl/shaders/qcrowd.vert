#version 330 core
// Crowd path over quantized frames (mk_qframe_set): positions are 16-bit
// unsigned normalized texels (R16, read back as q / 65535) with one scale and
// offset per axis, normals octahedral snorm16 pairs (RG16I). Each instance
// names frame A, frame B, weight and transform; the vertex pulls its data by
// (frame * vertex_count + gl_VertexID) and blends as the CPU's
// mk_blend_qframes does.
layout(location = 0) in uvec2 a_frames;
layout(location = 1) in float a_weight;
layout(location = 2) in mat4 a_model; // locations 2..5

uniform mat4 u_view_projection;
uniform samplerBuffer u_frames;   // R16: 3 texels per vertex
uniform isamplerBuffer u_qnormals; // RG16I: 1 texel per vertex
uniform int u_vertex_count;
uniform int u_normal_base; // >= 0 when the set has normals
uniform vec3 u_scale;
uniform vec3 u_offset;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
out vec3 tf_position;
out vec3 tf_normal;

vec3 fetch_q(int i)
{
    // q / 65535 back to q: exact for every 16-bit q in float
    return round(vec3(texelFetch(u_frames, i).r, texelFetch(u_frames, i + 1).r,
                      texelFetch(u_frames, i + 2).r) * 65535.0);
}

// Octahedral decode onto |x| + |y| + |z| = 1 (the CPU's oct_decode).
vec3 oct_decode(ivec2 q)
{
    vec2 uv = vec2(q) * (1.0 / 32767.0);
    float z = 1.0 - abs(uv.x) - abs(uv.y);
    float t = max(-z, 0.0);
    vec2 xy = uv - vec2(uv.x >= 0.0 ? t : -t, uv.y >= 0.0 ? t : -t);
    return vec3(xy, z);
}

vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    int va = int(a_frames.x) * u_vertex_count + gl_VertexID;
    int vb = int(a_frames.y) * u_vertex_count + gl_VertexID;
    float w = a_weight;
    tf_position = u_offset + u_scale * ((1.0 - w) * fetch_q(3 * va) + w * fetch_q(3 * vb));
    tf_normal = vec3(0.0);
    if (u_normal_base >= 0) {
        vec3 na = oct_decode(texelFetch(u_qnormals, va).rg);
        vec3 nb = oct_decode(texelFetch(u_qnormals, vb).rg);
        // (1 - w) A/|A| + w B/|B| has the direction of (1 - w)|B| A + w|A| B
        tf_normal = safe_normalize((1.0 - w) * length(nb) * na + w * length(na) * nb);
    }
    vec4 world = a_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    v_texcoord = vec2(0.0); // no texcoords on this path
    v_normal = mat3(a_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
