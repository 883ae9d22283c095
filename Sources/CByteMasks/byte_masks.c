// The header's functions are `static inline`; this file gives the module its one compiled symbol.
#include "CByteMasks.h"

int fallback_byte_masks_available(void) {
#if defined(__SSE2__)
    return 1;
#else
    return 0;
#endif
}
