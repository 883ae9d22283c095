#ifndef FALLBACK_CBYTEMASKS_H
#define FALLBACK_CBYTEMASKS_H

// Byte tests on a 64-byte block, as a 64-bit mask (bit i for byte i), with the SSE2 instructions
// every x86-64 processor has: sixteen bytes compared at once and their results gathered with
// `pmovmskb`, which Swift's portable SIMD types have no operation for. `static inline`, so Swift
// inlines them where it calls them. Only for x86-64: elsewhere this header declares nothing but
// `fallback_byte_masks_available`, and Swift uses its own SIMD path (`PortableBlockMasks`), which
// tests compare with these function by function and on whole texts. One more function, on every
// architecture: `fallback_prefetch_for_write` and `_for_read`, cache hints for `KeyPositions`.

#include <stdint.h>

/// 1 when this header's SSE2 functions were compiled (x86-64), 0 elsewhere.
int fallback_byte_masks_available(void);

/// Ask the processor to bring the cache line at `address` near, for a write soon or a read soon;
/// on every architecture (clang's builtin), and hints only: they never fault, whatever the
/// address. `KeyPositions` fetches a block of a large table's slots before probing them (to insert
/// or to look up), so their cache misses overlap instead of following one another.
static inline void fallback_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

static inline void fallback_prefetch_for_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#if defined(__SSE2__)

#include <emmintrin.h>

/// The four 16-byte quarters of the block at `block` (any alignment).
#define FALLBACK_BLOCK_QUARTERS(block)                                          \
    const __m128i q0 = _mm_loadu_si128((const __m128i *)(const void *)(block)); \
    const __m128i q1 = _mm_loadu_si128((const __m128i *)(const void *)((block) + 16)); \
    const __m128i q2 = _mm_loadu_si128((const __m128i *)(const void *)((block) + 32)); \
    const __m128i q3 = _mm_loadu_si128((const __m128i *)(const void *)((block) + 48))

/// The high bits of the four quarters' 64 bytes as one mask, quarter 0 the lowest 16 bits.
static inline uint64_t fallback_gather64(__m128i m0, __m128i m1, __m128i m2, __m128i m3) {
    return (uint64_t)(uint32_t)_mm_movemask_epi8(m0) | ((uint64_t)(uint32_t)_mm_movemask_epi8(m1) << 16)
        | ((uint64_t)(uint32_t)_mm_movemask_epi8(m2) << 32) | ((uint64_t)(uint32_t)_mm_movemask_epi8(m3) << 48);
}

/// Bytes equal to `byte`.
static inline uint64_t fallback_mask_equal(const uint8_t *block, uint8_t byte) {
    FALLBACK_BLOCK_QUARTERS(block);
    const __m128i b = _mm_set1_epi8((char)byte);
    return fallback_gather64(_mm_cmpeq_epi8(q0, b), _mm_cmpeq_epi8(q1, b), _mm_cmpeq_epi8(q2, b), _mm_cmpeq_epi8(q3, b));
}

/// Bytes equal to `first` or to `second`.
static inline uint64_t fallback_mask_either(const uint8_t *block, uint8_t first, uint8_t second) {
    FALLBACK_BLOCK_QUARTERS(block);
    const __m128i a = _mm_set1_epi8((char)first), b = _mm_set1_epi8((char)second);
#define FALLBACK_EITHER(q) _mm_or_si128(_mm_cmpeq_epi8(q, a), _mm_cmpeq_epi8(q, b))
    return fallback_gather64(FALLBACK_EITHER(q0), FALLBACK_EITHER(q1), FALLBACK_EITHER(q2), FALLBACK_EITHER(q3));
#undef FALLBACK_EITHER
}

/// JSON whitespace: space, tab, line feed, carriage return.
static inline uint64_t fallback_mask_whitespace(const uint8_t *block) {
    FALLBACK_BLOCK_QUARTERS(block);
    const __m128i space = _mm_set1_epi8(0x20), tab = _mm_set1_epi8(0x09), lineFeed = _mm_set1_epi8(0x0A),
                  carriageReturn = _mm_set1_epi8(0x0D);
#define FALLBACK_WHITESPACE(q)                                                                        \
    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(q, space), _mm_cmpeq_epi8(q, tab)),                     \
                 _mm_or_si128(_mm_cmpeq_epi8(q, lineFeed), _mm_cmpeq_epi8(q, carriageReturn)))
    return fallback_gather64(FALLBACK_WHITESPACE(q0), FALLBACK_WHITESPACE(q1), FALLBACK_WHITESPACE(q2), FALLBACK_WHITESPACE(q3));
#undef FALLBACK_WHITESPACE
}

/// Bytes below 0x20: a byte is one exactly when the smaller of it and 0x1F is itself.
static inline uint64_t fallback_mask_control(const uint8_t *block) {
    FALLBACK_BLOCK_QUARTERS(block);
    const __m128i top = _mm_set1_epi8(0x1F);
#define FALLBACK_CONTROL(q) _mm_cmpeq_epi8(_mm_min_epu8(q, top), q)
    return fallback_gather64(FALLBACK_CONTROL(q0), FALLBACK_CONTROL(q1), FALLBACK_CONTROL(q2), FALLBACK_CONTROL(q3));
#undef FALLBACK_CONTROL
}

/// Bytes from 0x80 up: their own high bits.
static inline uint64_t fallback_mask_high(const uint8_t *block) {
    FALLBACK_BLOCK_QUARTERS(block);
    return fallback_gather64(q0, q1, q2, q3);
}

/// UTF-8 continuation bytes, 0x80 to 0xBF: as signed bytes, exactly those below -64 (0xC0).
static inline uint64_t fallback_mask_continuation(const uint8_t *block) {
    FALLBACK_BLOCK_QUARTERS(block);
    const __m128i lead = _mm_set1_epi8((char)0xC0);
    return fallback_gather64(_mm_cmplt_epi8(q0, lead), _mm_cmplt_epi8(q1, lead), _mm_cmplt_epi8(q2, lead), _mm_cmplt_epi8(q3, lead));
}

#undef FALLBACK_BLOCK_QUARTERS

#endif

#endif
