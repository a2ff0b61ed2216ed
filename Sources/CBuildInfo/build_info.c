#include "CBuildInfo.h"

/*
 * A section of its own, 64 bytes, so that the Makefile that builds releases
 * (contrib/Makefile) can write the commit into the finished binary with
 * `objcopy --update-section`, without the manifest reading anything from the machine. A
 * plain `swift build` leaves "unknown". `volatile` keeps the compiler from folding the
 * string into its callers.
 */
__attribute__((section(".faceoff_commit"), used)) static const volatile char commit[64] = "unknown";

const char *faceoff_build_commit(void) { return (const char *)commit; }
