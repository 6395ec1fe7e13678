#ifndef STASH_CICU_SHIM_H
#define STASH_CICU_SHIM_H
/* ICU for `stash search`: Unicode's default full case folding (u_strFoldCase) and canonical
   decomposition (unorm2 NFD), which the Swift standard library does not offer. ICU renames its
   entry points by version in macros (u_strFoldCase_72), which Swift cannot call, hence these
   static functions. Each takes one code point and writes what it becomes as code points. */
#include <unicode/utypes.h>
#include <unicode/ustring.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>

/* The code point `c`, case-folded first when `fold` (U_FOLD_CASE_DEFAULT: locale-independent,
   so I folds to i and dotless ı stays ı) and then canonically decomposed (NFD), into `out`
   (`capacity` code points). Returns how many were written, or -1 when ICU fails or `out` is too
   small. */
static inline int32_t stash_icu_fold(UChar32 c, int fold, UChar32 *out, int32_t capacity) {
  UChar one[2];
  int32_t length = 0;
  UBool error = 0;
  U16_APPEND(one, length, 2, c, error);
  if (error) return -1;
  UErrorCode status = U_ZERO_ERROR;
  UChar folded[32];
  const UChar *source = one;
  if (fold) {
    length = u_strFoldCase(folded, 32, one, length, U_FOLD_CASE_DEFAULT, &status);
    if (U_FAILURE(status) || length > 32) return -1;
    source = folded;
  }
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
  if (U_FAILURE(status)) return -1;
  UChar decomposed[64];
  int32_t decomposedLength = unorm2_normalize(nfd, source, length, decomposed, 64, &status);
  if (U_FAILURE(status) || decomposedLength > 64) return -1;
  int32_t count = 0;
  for (int32_t i = 0; i < decomposedLength;) {
    UChar32 point;
    U16_NEXT(decomposed, i, decomposedLength, point);
    if (count >= capacity) return -1;
    out[count++] = point;
  }
  return count;
}
#endif
