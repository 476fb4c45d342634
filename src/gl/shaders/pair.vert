#version 330 core
// Pose of two entries: frames A and B of the same vertex buffer arrive as two
// attribute streams; out = w.x * A + w.y * B with the weights as given (any
// sum), as mk_pose_eval computes it on the CPU.
layout(location = 0) in vec3 a_position0;
layout(location = 1) in vec3 a_position1;
layout(location = 4) in vec3 a_normal0;
layout(location = 5) in vec3 a_normal1;
layout(location = 12) in vec2 a_texcoord; // (0, 0) when not uploaded

uniform mat4 u_model;
uniform mat4 u_view_projection;
uniform vec2 u_weights;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
out vec3 tf_position;
out vec3 tf_normal;

// Re-normalize a blended normal; shorter than 1e-12 (opposite inputs) gives
// zero, as the CPU kernels do, never NaN.
vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    tf_position = u_weights.x * a_position0 + u_weights.y * a_position1;
    tf_normal = safe_normalize(u_weights.x * a_normal0 + u_weights.y * a_normal1);
    vec4 world = u_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    v_texcoord = a_texcoord;
    v_normal = mat3(u_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
