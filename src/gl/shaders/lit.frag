#version 330 core
// One directional light plus a sky/ground ambient term, shared by every path.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_texcoord;

uniform vec3 u_light;   // unit vector towards the light, world space
uniform vec4 u_color;   // base colour, linear
uniform float u_ambient;
uniform int u_flat;     // 1: no vertex normals, use the triangle's own
uniform sampler2D u_texture; // base colour texture, sRGB-decoded by the sampler
uniform int u_textured; // 1: multiply the base colour by u_texture at v_texcoord

out vec4 o_color;

void main()
{
    vec3 n;
    // The screen-space derivative cross product is the triangle's normal,
    // facing the viewer whatever the winding.
    vec3 face = normalize(cross(dFdx(v_world), dFdy(v_world)));
    if (u_flat != 0 || dot(v_normal, v_normal) < 1e-24) {
        n = face;
    } else {
        n = normalize(v_normal);
        // Two-sided lighting: a back face is lit from its visible side.
        if (!gl_FrontFacing)
            n = -n;
    }
    vec4 base = u_color;
    if (u_textured != 0)
        base *= texture(u_texture, v_texcoord);
    float diffuse = max(dot(n, u_light), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    vec3 lit = base.rgb * (u_ambient * mix(0.6, 1.0, sky) + (1.0 - u_ambient) * diffuse);
    // Linear to (approximately) sRGB for display.
    o_color = vec4(pow(clamp(lit, 0.0, 1.0), vec3(1.0 / 2.2)), base.a);
}
