#version 430 core
// Compute path of the crowd (OpenGL 4.3): one invocation per (instance,
// vertex) blends that instance's two frames into the blended buffer, which
// crowd_pulled.vert then reads, so the vertex shader does no blending. The
// same arithmetic as crowd.vert and the CPU's mk_blend_frames.
layout(local_size_x = 64) in;

struct Instance {
    uvec2 frames;
    float weight;
    float pad;
    mat4 model;
};
layout(std430, binding = 0) readonly buffer Instances { Instance u_instances[]; };
// [positions of all frames][normals of all frames], float3 per vertex
layout(std430, binding = 1) readonly buffer Frames { float u_frames[]; };
// per (instance, vertex): position (w = 1), normal (w = 0)
layout(std430, binding = 2) writeonly buffer Blended { vec4 u_blended[]; };

uniform int u_vertex_count;
uniform int u_normal_base; // first normal float in u_frames; < 0 without normals
uniform int u_total;       // instances * vertex_count

vec3 fetch3(int i)
{
    return vec3(u_frames[i], u_frames[i + 1], u_frames[i + 2]);
}

vec3 safe_normalize(vec3 n)
{
    float len2 = dot(n, n);
    return len2 >= 1e-24 ? n * inversesqrt(len2) : vec3(0.0);
}

void main()
{
    // rows of at most 65535 groups (the smallest limit GL allows per dimension)
    int g = int(gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x +
                gl_GlobalInvocationID.x);
    if (g >= u_total)
        return;
    int i = g / u_vertex_count, v = g - i * u_vertex_count;
    Instance inst = u_instances[i];
    float w = inst.weight;
    int ia = 3 * (int(inst.frames.x) * u_vertex_count + v);
    int ib = 3 * (int(inst.frames.y) * u_vertex_count + v);
    vec3 p = (1.0 - w) * fetch3(ia) + w * fetch3(ib);
    vec3 n = vec3(0.0);
    if (u_normal_base >= 0)
        n = safe_normalize((1.0 - w) * fetch3(u_normal_base + ia) +
                           w * fetch3(u_normal_base + ib));
    u_blended[2 * g] = vec4(p, 1.0);
    u_blended[2 * g + 1] = vec4(n, 0.0);
}
