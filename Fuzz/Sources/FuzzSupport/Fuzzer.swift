import FuzzDriver

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every fuzz target shares: libFuzzer's driver, the input as bytes, and a failed property
/// reported as a crash (libFuzzer then saves the input as `crash-<sha1>`).
public enum Fuzzer {
    /// The signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with the process's arguments (`-max_total_time=60 corpus/` and so on) and exits.
    public static func run(_ test: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = UnsafeMutablePointer(mutating: CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    }

    /// The input libFuzzer passes, as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input cut at every NUL byte: how a target that reads several texts (a snapshot and its
    /// baseline, a template and its partials) takes them from one input. Text formats never contain NUL.
    public static func parts(of bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    }

    /// Stops with `message` when a property does not hold; libFuzzer reports it as a crash and saves the input.
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        guard condition() else {
            let text = Array("fuzz property failed: \(message())\n".utf8)
            _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            abort()
        }
    }
}
