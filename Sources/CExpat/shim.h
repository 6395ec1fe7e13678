#ifndef STASH_CEXPAT_SHIM_H
#define STASH_CEXPAT_SHIM_H
#include <expat.h>

/* expat.h declares the billion-laughs limits only under XML_DTD, which the library is built with
   (Debian's libexpat1 is) but which a client does not define; declare them here so Swift sees them. */
#ifndef XML_DTD
XMLPARSEAPI(XML_Bool)
XML_SetBillionLaughsAttackProtectionMaximumAmplification(XML_Parser parser,
                                                         float maximumAmplificationFactor);
XMLPARSEAPI(XML_Bool)
XML_SetBillionLaughsAttackProtectionActivationThreshold(XML_Parser parser,
                                                        unsigned long long activationThresholdBytes);
#endif

/* Sets both entity-expansion limits; returns 1 when the library accepted them. */
static inline int stash_expat_limit_amplification(XML_Parser parser, float factor,
                                                  unsigned long long threshold) {
  return XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser, factor) &&
         XML_SetBillionLaughsAttackProtectionActivationThreshold(parser, threshold);
}

#endif
