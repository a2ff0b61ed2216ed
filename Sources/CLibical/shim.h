#ifndef FACEOFF_CLIBICAL_SHIM_H
#define FACEOFF_CLIBICAL_SHIM_H

#include <libical/ical.h>

/* icalerrno is a macro over a thread-local lookup; Swift cannot import it. */
static inline icalerrorenum faceoff_ical_errno(void) {
    return icalerrno;
}

static inline void faceoff_ical_clear_errno(void) {
    icalerror_clear_errno();
}

static inline const char *faceoff_ical_version(void) {
    return ICAL_VERSION;
}

#endif
