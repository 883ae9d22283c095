/// A value an option takes, read from its text once, when the command line is parsed: our
/// counterpart of swift-argument-parser's `ExpressibleByArgument`.
protocol ArgumentValue: Sendable {
    /// The value `argument` spells; nil when it spells none.
    init?(argument: String)
    /// Every accepted spelling, for help and for "did you mean"; empty when values are open-ended
    /// (a path, a number).
    static var allValueStrings: [String] { get }
    /// What an open-ended value must be, said when one is refused (`expected a whole number …`).
    static var expectation: String { get }
    /// The value as it is spelled on the command line, for help's default.
    var argumentText: String { get }
}

extension ArgumentValue {
    static var allValueStrings: [String] { [] }
    static var expectation: String { "" }
    var argumentText: String { "\(self)" }
}

extension ArgumentValue where Self: CaseIterable & RawRepresentable<String> {
    init?(argument: String) { self.init(rawValue: argument) }
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    var argumentText: String { rawValue }
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
}

/// An option declared once with its value type: the parser reads its values into `Value`, help
/// lists them, and a command reads them back typed (`ParsedArguments.value(_:)`).
struct TypedOption<Value: ArgumentValue>: Sendable {
    let name: String
    let valueName: String
    let help: String
    /// The value when the option is not given.
    var defaultValue: Value?
    /// What help says the default is, when something other than `defaultValue` decides it (the
    /// configuration, the snapshot).
    var defaultDescription: String?
    var isRequired = false
    var isRepeatable = false
    /// What a shell offers for an open-ended value (a file, a folder); a choice's values need not be said.
    var completion: ValueCompletion

    init(
        name: String, valueName: String, help: String, defaultValue: Value? = nil, defaultDescription: String? = nil,
        isRequired: Bool = false, isRepeatable: Bool = false, completion: ValueCompletion = .anything
    ) {
        self.completion = completion
        self.name = name
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.defaultDescription = defaultDescription
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
    }

    /// The option as the parser and the help see it.
    var declaration: CommandSignature.Option {
        CommandSignature.Option(
            name: name, valueName: valueName, help: help, choices: Value.allValueStrings,
            defaultDescription: defaultDescription ?? defaultValue?.argumentText, isRequired: isRequired, isRepeatable: isRepeatable,
            read: { Value(argument: $0) }, expectation: Value.expectation, valueCompletion: completion)
    }
}
