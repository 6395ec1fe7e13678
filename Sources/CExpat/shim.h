#ifndef STASH_CEXPAT_SHIM_H
#define STASH_CEXPAT_SHIM_H
#include <expat.h>
#endif
