#ifndef STASH_CALSA_SHIM_H
#define STASH_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
