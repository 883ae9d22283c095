/// What a device running in one locale shows for a piece of funnel copy (§4 `Text`, `TextList`).
///
/// The contract has no locale fallback: a plain string or list is shown as written whatever the
/// device's locale, and a per-locale object is looked up by the device's locale, byte for byte;
/// a locale the object has no entry for gets nothing, so the device shows the field blank.
public enum DeviceCopy<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The copy written for the locale (which may itself be empty).
    case localized(Value)
    /// Plain copy: one string or list for every locale, shown as written.
    case plain(Value)
    /// The per-locale object has no entry for the locale: the device shows nothing.
    case missing

    /// The value the device shows, nil when it has none.
    public var value: Value? {
        switch self {
        case .localized(let value), .plain(let value): value
        case .missing: nil
        }
    }
}

extension LocalizedText {
    /// What a device with `locale` shows for this text.
    public func copy(for locale: String) -> DeviceCopy<String> {
        switch self {
        case .plain(let text): .plain(text)
        case .localized(let map): map[locale].map(DeviceCopy.localized) ?? .missing
        }
    }
}

extension LocalizedTextList {
    /// What a device with `locale` shows for this list.
    public func copy(for locale: String) -> DeviceCopy<[String]> {
        switch self {
        case .plain(let list): .plain(list)
        case .localized(let map): map[locale].map(DeviceCopy.localized) ?? .missing
        }
    }
}
