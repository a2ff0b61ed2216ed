#ifndef FACEOFF_CBUILDINFO_H
#define FACEOFF_CBUILDINFO_H

/// The commit the binary was built from, or "unknown".
const char *faceoff_build_commit(void);

#endif
