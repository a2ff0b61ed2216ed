#ifndef FACEOFF_CQRENCODE_SHIM_H
#define FACEOFF_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
