/** @file
 *  @brief The export macro that marks every public symbol.
 *
 *  The library is built with hidden visibility; only declarations marked
 *  CDYN_API are exported, and the linker map (src/cdyn.map) pins them to a
 *  version node. Users never define CDYN_BUILDING_LIBRARY; on Windows, a
 *  program that links the static library defines CDYN_STATIC.
 */
#ifndef CDYN_EXPORT_H
#define CDYN_EXPORT_H

/** @def CDYN_API
 *  @brief Marks a declaration as part of the library's ABI.
 *
 *  Expands to the visibility attribute (GCC, Clang) or dllexport while the
 *  library is built, to dllimport for programs using the DLL on Windows,
 *  and to nothing otherwise.
 */

#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(CDYN_BUILDING_LIBRARY)
#    define CDYN_API __declspec(dllexport)
#  elif defined(CDYN_STATIC)
#    define CDYN_API
#  else
#    define CDYN_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && defined(CDYN_BUILDING_LIBRARY)
#  define CDYN_API __attribute__((visibility("default")))
#else
#  define CDYN_API
#endif

#endif /* CDYN_EXPORT_H */
