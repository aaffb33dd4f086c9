/* Compiler hints used by hot loops. Internal. */
#ifndef CDYN__COMPILER_H
#define CDYN__COMPILER_H

/* Kernels written once for a dimension D and called with D = 2 and D = 3:
 * forcing them inline makes D a constant, so their loops unroll. */
#if defined(__GNUC__)
#define CDYN__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CDYN__ALWAYS_INLINE inline
#endif

#endif /* CDYN__COMPILER_H */
