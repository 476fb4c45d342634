#version 330 core
// Crowd path: every frame of the unit is resident in one float buffer
// texture, [positions of all frames][normals of all frames]; each instance
// names its own frame A, frame B, weight and transform, and the vertex
// pulls its data by (frame * vertex_count + gl_VertexID).
layout(location = 0) in uvec2 a_frames;
layout(location = 1) in float a_weight;
layout(location = 2) in mat4 a_model; // locations 2..5

uniform mat4 u_view_projection;
uniform samplerBuffer u_frames;
uniform int u_vertex_count;
uniform int u_normal_base; // first normal float in u_frames; < 0 without normals

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
out vec3 tf_position;
out vec3 tf_normal;

vec3 fetch3(int i)
{
    return vec3(texelFetch(u_frames, i).r, texelFetch(u_frames, i + 1).r,
                texelFetch(u_frames, i + 2).r);
}

vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    int ia = 3 * (int(a_frames.x) * u_vertex_count + gl_VertexID);
    int ib = 3 * (int(a_frames.y) * u_vertex_count + gl_VertexID);
    tf_position = (1.0 - a_weight) * fetch3(ia) + a_weight * fetch3(ib);
    tf_normal = vec3(0.0);
    if (u_normal_base >= 0)
        tf_normal = safe_normalize((1.0 - a_weight) * fetch3(u_normal_base + ia) +
                                   a_weight * fetch3(u_normal_base + ib));
    vec4 world = a_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    v_texcoord = vec2(0.0); // no texcoords on this path
    v_normal = mat3(a_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
