#ifndef FALLBACK_CSHA256_H
#define FALLBACK_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has the SHA-256 instructions `fallback_sha256_compress_blocks` uses
/// (x86-64: SHA, SSSE3 and SSE4.1, asked of CPUID once). False everywhere else, where the Swift
/// compression function is the only one.
int fallback_sha256_hardware_available(void);

/// Runs SHA-256's compression function over `blockCount` 64-byte blocks from `blocks`, updating the
/// eight state words `state` (H0...H7 as FIPS 180-4 numbers them) in place, with the processor's
/// SHA-256 instructions. Call it only when `fallback_sha256_hardware_available()` is true.
void fallback_sha256_compress_blocks(uint32_t state[8], const uint8_t *blocks, size_t blockCount);

#endif
