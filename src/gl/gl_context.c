/* Headless OpenGL contexts through EGL (no window, no X server). */
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <string.h>

#include "gl_internal.h"

struct mk_gl_context {
    mk_allocator allocator;
    EGLDisplay display;
    EGLContext context;
    EGLSurface surface; /* a 1x1 pbuffer, or EGL_NO_SURFACE (surfaceless) */
    char description[256];
};

static mk_status fail_egl(mk_error *err, const char *what)
{
    return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0, "EGL: %s (EGL error 0x%04x)", what,
                        (unsigned)eglGetError());
}

/* Creates a 3.3 core context on an initialized display, with a pbuffer
 * when the display cannot make a context current without a surface. */
static bool try_context(EGLDisplay display, const mk_gl_context_options *opt, mk_gl_context *c,
                        char *why, size_t why_size)
{
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(why, why_size, "the display has no desktop OpenGL (eglBindAPI failed)");
        return false;
    }
    bool surfaceless = epoxy_has_egl_extension(display, "EGL_KHR_surfaceless_context");
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                                     EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(display, config_attribs, &config, 1, &n) || n < 1) {
        snprintf(why, why_size, "no EGL config with desktop OpenGL");
        return false;
    }
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_CONTEXT_OPENGL_DEBUG, opt->debug ? EGL_TRUE : EGL_FALSE,
                                      EGL_NONE};
    c->context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
    if (c->context == EGL_NO_CONTEXT) {
        snprintf(why, why_size, "no OpenGL 3.3 core context (EGL error 0x%04x)",
                 (unsigned)eglGetError());
        return false;
    }
    c->surface = EGL_NO_SURFACE;
    if (!surfaceless) {
        const EGLint pbuffer_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        c->surface = eglCreatePbufferSurface(display, config, pbuffer_attribs);
        if (c->surface == EGL_NO_SURFACE) {
            snprintf(why, why_size, "no pbuffer surface (EGL error 0x%04x)",
                     (unsigned)eglGetError());
            eglDestroyContext(display, c->context);
            return false;
        }
    }
    if (!eglMakeCurrent(display, c->surface, c->surface, c->context) ||
        epoxy_gl_version() < 33) {
        snprintf(why, why_size, "the context could not be made current or is below GL 3.3");
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (c->surface != EGL_NO_SURFACE)
            eglDestroySurface(display, c->surface);
        eglDestroyContext(display, c->context);
        return false;
    }
    c->display = display;
    return true;
}

static bool try_display(EGLDisplay display, const mk_gl_context_options *opt, mk_gl_context *c,
                        char *why, size_t why_size)
{
    EGLint major, minor;
    if (display == EGL_NO_DISPLAY) {
        snprintf(why, why_size, "no EGL display");
        return false;
    }
    if (!eglInitialize(display, &major, &minor)) {
        snprintf(why, why_size, "eglInitialize failed (EGL error 0x%04x)", (unsigned)eglGetError());
        return false;
    }
    if (try_context(display, opt, c, why, why_size))
        return true;
    eglTerminate(display);
    return false;
}

mk_status mk_gl_context_create(const mk_gl_context_options *options,
                               const mk_allocator *allocator, mk_gl_context **out, mk_error *err)
{
    static const mk_gl_context_options defaults = {0};
    const mk_gl_context_options *opt = options ? options : &defaults;
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    /* epoxy aborts when a function has no provider, so check first. */
    if (!epoxy_has_egl())
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "EGL: libEGL.so.1 could not be loaded (install libegl1 and a driver, "
                            "e.g. Mesa's libegl-mesa0)");
    mk_gl_context *c = mk_alloc(allocator, sizeof *c);
    if (!c)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(c, 0, sizeof *c);
    c->allocator = allocator ? *allocator : (mk_allocator){0};

    char why[160] = "no display tried";
    bool ok = false;
    bool platform_base = epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base");
    if (platform_base &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
        ok = try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                                  EGL_DEFAULT_DISPLAY, NULL),
                         opt, c, why, sizeof why);
    if (!ok && platform_base && epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device") &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration")) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (eglQueryDevicesEXT(16, devices, &count))
            for (EGLint i = 0; i < count && !ok; i++)
                ok = try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL),
                                 opt, c, why, sizeof why);
    }
    if (!ok)
        ok = try_display(eglGetDisplay(EGL_DEFAULT_DISPLAY), opt, c, why, sizeof why);
    if (!ok) {
        mk_free(&c->allocator, c, sizeof *c);
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "no headless OpenGL 3.3 context: %s (is Mesa's libegl-mesa0 / "
                            "libgl1-mesa-dri installed?)",
                            why);
    }
    snprintf(c->description, sizeof c->description, "%s / %s",
             (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER));
    *out = c;
    return MK_OK;
}

void mk_gl_context_destroy(mk_gl_context *c)
{
    if (!c)
        return;
    eglMakeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (c->surface != EGL_NO_SURFACE)
        eglDestroySurface(c->display, c->surface);
    eglDestroyContext(c->display, c->context);
    eglTerminate(c->display);
    /* Frees the per-thread EGL state too (it would otherwise show as a leak). */
    eglReleaseThread();
    mk_allocator a = c->allocator;
    mk_free(&a, c, sizeof *c);
}

mk_status mk_gl_context_make_current(mk_gl_context *c, mk_error *err)
{
    MK_GL_REQUIRE(c, "context", err);
    if (!eglMakeCurrent(c->display, c->surface, c->surface, c->context))
        return fail_egl(err, "eglMakeCurrent failed");
    return MK_OK;
}

const char *mk_gl_context_description(const mk_gl_context *c)
{
    return c ? c->description : "";
}
