/* Kernel choice: once per process, at the first kernel call.
 *
 * The best table the CPU runs (cpuid through __builtin_cpu_supports, which
 * also checks that the OS saves the wide registers), lowered to the level
 * named by the MK_SIMD environment variable (scalar, sse2, avx2, avx512)
 * when that is lower; an unknown name or a level the CPU lacks is ignored.
 * The choice is published through a C11 atomic pointer: threads racing on
 * the first call compute the same answer, so no lock is needed, and every
 * later call is one acquire load. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static bool cpu_has(mk_simd_level level)
{
    switch (level) {
    case MK_SIMD_SCALAR:
        return true;
#if defined(MK_HAVE_SSE2)
    case MK_SIMD_SSE2:
        return true; /* x86-64 baseline */
#endif
#if defined(MK_HAVE_AVX2)
    case MK_SIMD_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case MK_SIMD_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
#endif
    default:
        return false;
    }
}

static const mk_kernels *table(mk_simd_level level)
{
    switch (level) {
#if defined(MK_HAVE_SSE2)
    case MK_SIMD_SSE2:
        return &mk_kernels_sse2;
#endif
#if defined(MK_HAVE_AVX2)
    case MK_SIMD_AVX2:
        return &mk_kernels_avx2;
    case MK_SIMD_AVX512:
        return &mk_kernels_avx512;
#endif
    default:
        return &mk_kernels_scalar;
    }
}

const mk_kernels *mk_kernels_for_level(mk_simd_level level)
{
    if ((unsigned)level >= MK_SIMD_LEVEL_COUNT || !cpu_has(level))
        return NULL;
    return table(level);
}

static const mk_kernels *choose(void)
{
    static const char *const names[MK_SIMD_LEVEL_COUNT] = {"scalar", "sse2", "avx2", "avx512"};
    int best = MK_SIMD_SCALAR;
    for (int l = MK_SIMD_LEVEL_COUNT - 1; l > MK_SIMD_SCALAR; l--)
        if (cpu_has((mk_simd_level)l)) {
            best = l;
            break;
        }
    const char *want = getenv("MK_SIMD");
    for (int l = 0; want && l < best; l++)
        if (strcmp(want, names[l]) == 0 && cpu_has((mk_simd_level)l))
            best = l;
    return table((mk_simd_level)best);
}

static _Atomic(const mk_kernels *) active;

const mk_kernels *mk_kernels_active(void)
{
    const mk_kernels *k = atomic_load_explicit(&active, memory_order_acquire);
    if (!k) {
        k = choose();
        atomic_store_explicit(&active, k, memory_order_release);
    }
    return k;
}
