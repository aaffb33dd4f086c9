#include "cdyn/version.h"

unsigned cdyn_version(void)
{
    return (unsigned)CDYN_VERSION_NUMBER;
}

const char *cdyn_version_string(void)
{
    return CDYN_VERSION_STRING;
}
