/* cdyn: the export macro that marks every public symbol.
 *
 * The library is built with hidden visibility; only declarations marked
 * CDYN_API are exported, and the linker map (src/cdyn.map) pins them to a
 * version node. Users never define CDYN_BUILDING_LIBRARY.
 */
#ifndef CDYN_EXPORT_H
#define CDYN_EXPORT_H

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
