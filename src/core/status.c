/* The one table of status codes: names and strings come from the same rows. */
#include "cdyn/status.h"

#define CDYN__STATUS_TABLE(X)                                                   \
    X(CDYN_OK, "success")                                                       \
    X(CDYN_ERR_INVALID_ARGUMENT, "invalid argument")                            \
    X(CDYN_ERR_INVALID_HANDLE, "invalid handle (zero, wrong kind or foreign)")  \
    X(CDYN_ERR_STALE_HANDLE, "stale handle (object was removed)")               \
    X(CDYN_ERR_NO_MEMORY, "out of memory")                                      \
    X(CDYN_ERR_SINGULAR, "singular system")                                     \
    X(CDYN_ERR_NOT_CONVERGED, "iteration did not converge")                     \
    X(CDYN_ERR_DIVERGED, "step diverged (non-finite state)")                    \
    X(CDYN_ERR_UNSUPPORTED, "unsupported")                                      \
    X(CDYN_ERR_CALLBACK, "a user callback reported an error")                   \
    X(CDYN_ERR_BUSY, "object is busy (inside a step)")                          \
    X(CDYN_ERR_IO, "input/output error")                                        \
    X(CDYN_ERR_FORMAT, "corrupt, truncated or foreign data")                    \
    X(CDYN_ERR_UNRESOLVED, "a callback of the snapshot was not resolved")

const char *cdyn_status_string(cdyn_status status)
{
    switch (status) {
#define X(name, text) case name: return text;
        CDYN__STATUS_TABLE(X)
#undef X
    }
    return "unknown status";
}

const char *cdyn_status_name(cdyn_status status)
{
    switch (status) {
#define X(name, text) case name: return #name;
        CDYN__STATUS_TABLE(X)
#undef X
    }
    return "CDYN_UNKNOWN";
}
