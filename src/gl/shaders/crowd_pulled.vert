#version 430 core
// Draw of the compute path: the pose of every (instance, vertex) was blended
// by crowd_blend.comp; this shader only reads it and applies the instance's
// transform.
layout(location = 2) in mat4 a_model; // locations 2..5, per instance

layout(std430, binding = 2) readonly buffer Blended { vec4 u_blended[]; };

uniform mat4 u_view_projection;
uniform int u_vertex_count;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_texcoord;
out vec3 tf_position;
out vec3 tf_normal;

void main()
{
    int g = gl_InstanceID * u_vertex_count + gl_VertexID;
    tf_position = u_blended[2 * g].xyz;
    tf_normal = u_blended[2 * g + 1].xyz;
    vec4 world = a_model * vec4(tf_position, 1.0);
    v_world = world.xyz;
    v_texcoord = vec2(0.0); // no texcoords on this path
    v_normal = mat3(a_model) * tf_normal;
    gl_Position = u_view_projection * world;
}
