import FallbackCLI
import RovenueFallback

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Repeated parses (history over a folder, a series build) reuse the memory of the last.
MemoryPages.keepFreedMemoryWarm()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
