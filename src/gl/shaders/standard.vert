#version 330 core
// Standard path: one vertex stream, scaled by one weight (a pose of one
// entry, out = w * F, as mk_pose_eval computes it; 1 for a mesh the CPU
// wrote). Attribute locations are shared with pair.vert and smooth.vert:
// positions at 0..3, normals at 4..7, so one VAO layout serves all three.
layout(location = 0) in vec3 a_position0;
layout(location = 4) in vec3 a_normal0;
layout(location = 12) in vec2 a_texcoord; // (0, 0) when not uploaded

uniform mat4 u_model;
uniform mat4 u_view_projection;
uniform float u_weight;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
// Object-space result, read back by transform feedback in the tests.
out vec3 tf_position;
out vec3 tf_normal;

// Re-normalize as the CPU kernels do: shorter than 1e-12 gives zero, never NaN.
vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    tf_position = u_weight * a_position0;
    tf_normal = safe_normalize(u_weight * a_normal0);
    vec4 world = u_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    v_texcoord = a_texcoord;
    // mat3(model) is right for rotations with uniform scale; the fragment
    // shader normalizes.
    v_normal = mat3(u_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
