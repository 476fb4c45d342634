/* morphkit/config.h - export and attribute macros shared by the public headers. */
#ifndef MORPHKIT_CONFIG_H
#define MORPHKIT_CONFIG_H

#define MK_VERSION_MAJOR 0
#define MK_VERSION_MINOR 1
#define MK_VERSION_PATCH 0
#define MK_VERSION_STRING "0.1.0"

/* The one "none" value of the API: an index or id that names nothing (no
 * clip, no accessor, a corner without a normal, a name that was not found). */
#define MK_NONE 0xFFFFFFFFu

/* Shared builds export only the API; static builds and consumers of them see
 * plain declarations. */
#if defined(MK_BUILDING_SHARED) && defined(__GNUC__)
#define MK_API __attribute__((visibility("default")))
#else
#define MK_API
#endif

#if defined(__GNUC__)
#define MK_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define MK_PRINTF(fmt, args)
#endif

#endif
