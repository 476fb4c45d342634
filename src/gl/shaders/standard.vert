#version 330 core
// Standard path: one vertex stream (a held frame, or a mesh the CPU wrote).
// Attribute locations are shared with pair.vert and smooth.vert: positions
// at 0..3, normals at 4..7, so one VAO layout serves all three.
layout(location = 0) in vec3 a_position0;
layout(location = 4) in vec3 a_normal0;

uniform mat4 u_model;
uniform mat4 u_view_projection;

out vec3 v_world;
out vec3 v_normal;
// Object-space result, read back by transform feedback in the tests.
out vec3 tf_position;
out vec3 tf_normal;

void main()
{
    tf_position = a_position0;
    tf_normal = a_normal0;
    vec4 world = u_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    // mat3(model) is right for rotations with uniform scale; the fragment
    // shader normalizes.
    v_normal = mat3(u_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
