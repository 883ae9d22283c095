import Foundation

/// The SDK's fallback set: what `setFallbackPlacements` loads and an offline device resolves from.
///
/// A load replaces the whole set on success and leaves it untouched when it throws.
public final class FallbackStore: @unchecked Sendable {
    private let lock = NSLock()
    /// Keyed exactly, by UTF-8 bytes, as the SDK's map is.
    private var entries: [ExactKey: FallbackEntry] = [:]

    /// An empty set: nothing resolves until a load succeeds.
    public init() {}

    /// Loads a fallback file from JSON text, as the string-based loaders do (a byte-order mark throws).
    /// - Returns: the number of entries loaded; entries that fail to decode are skipped.
    @discardableResult
    public func setFallbackPlacements(json: String) throws(FallbackError) -> Int {
        try load(FallbackFile(text: json))
    }

    /// Loads a fallback file from a file URL, as Swift's bundled-asset convenience does (a leading
    /// byte-order mark is stripped).
    @discardableResult
    public func setFallbackPlacements(fileURL: URL) throws(FallbackError) -> Int {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw FallbackError(kind: .io, message: "cannot read fallback placements file \(fileURL.path): \(error.localizedDescription)")
        }
        return try load(FallbackFile(bytes: [UInt8](data), strippingByteOrderMark: true))
    }

    /// Replaces the set with a file's loaded entries, or throws and keeps the set.
    @discardableResult
    public func load(_ file: FallbackFile) throws(FallbackError) -> Int {
        if let rejection = file.rejection {
            throw FallbackError(kind: .invalidArgument, message: rejection.message, rejection: rejection)
        }
        var loaded: [ExactKey: FallbackEntry] = [:]
        for (key, entry) in file.loadedEntries {
            loaded[ExactKey(key)] = entry
        }
        lock.withLock { entries = loaded }
        return loaded.count
    }

    /// The number of entries loaded.
    public var count: Int { lock.withLock { entries.count } }

    /// The entry `getFunnel(placement)`/`getPaywall(placement)` finds for a key (exact, case-sensitive).
    public func entry(forPlacement key: String) -> FallbackEntry? {
        lock.withLock { entries[ExactKey(key)] }
    }

    /// What an offline device with `subscriberId` is served for `placement`; nil when the key is
    /// not loaded, in which case the SDK returns the original network error.
    public func resolve(placement key: String, subscriberId: String) -> OfflineResolution? {
        entry(forPlacement: key)?.resolve(subscriberId: subscriberId)
    }
}

/// An error the loader throws, with the SDK's kind and message.
public struct FallbackError: Error, Sendable, CustomStringConvertible {
    /// The SDK's error kinds the loader throws.
    public enum Kind: Sendable, Hashable {
        /// The text is not a fallback file the SDK accepts.
        case invalidArgument
        /// The file could not be read.
        case io
    }

    /// `invalidArgument` for a file the SDK rejects, `io` for one that cannot be read.
    public let kind: Kind
    /// The SDK's message (`FallbackRejection.message` for a rejected file).
    public let message: String
    /// The rule of §2 that decided, for `invalidArgument`.
    public let rejection: FallbackRejection?

    /// An error from its parts.
    public init(kind: Kind, message: String, rejection: FallbackRejection? = nil) {
        self.kind = kind
        self.message = message
        self.rejection = rejection
    }

    public var description: String { message }
}
