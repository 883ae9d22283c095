// Only the declaration in include/FuzzDriver.h: the definition is in libFuzzer's runtime.
