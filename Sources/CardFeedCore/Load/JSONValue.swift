import Foundation

/// What a JSON value parsed by `JSONSerialization` is, told apart precisely enough for messages
/// ("expected text, found a number") and for lenient reading (`"5.0"`, `"true"`, `0`/`1`).
enum JSONKind {
    case null, bool(Bool), number(NSNumber), string(String), array([Any]), object([String: Any])

    /// The class Foundation uses for `true` and `false`, which also answer `as? Int`.
    private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

    init(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            self = type(of: number) == Self.booleanClass ? .bool(number.boolValue) : .number(number)
        case let array as [Any]: self = .array(array)
        case let object as [String: Any]: self = .object(object)
        default: self = .null
        }
    }

    /// "a number", "text", ... for messages.
    var noun: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON syntax error, placed at a line and column of its file.
struct JSONSyntaxError: Error {
    var line: Int
    var column: Int
    var message: String

    /// Turns Foundation's "... around character 19." into a line and column of `data`.
    init(_ error: Error, in data: Data) {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        var offset = data.count
        if let range = text.range(of: #"character (\d+)"#, options: .regularExpression),
            let number = Int(text[range].split(separator: " ").last ?? "")
        {
            offset = min(number, data.count)
        }
        var line = 1
        var lineStart = 0
        for (position, byte) in data.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        self.line = line
        self.column = offset - lineStart + 1
        self.message = Self.plain(text, atEnd: offset >= data.count)
    }

    /// Foundation's wording, without the redundant position.
    private static func plain(_ text: String, atEnd: Bool) -> String {
        if text.hasPrefix("Unexpected end of file") || (atEnd && text.hasPrefix("Invalid value")) {
            return "invalid JSON: the file ends before the JSON value does"
        }
        let cleaned = text.replacingOccurrences(of: #"\s*around (line \d+, column \d+|character \d+)\.?"#, with: "", options: .regularExpression)
        return "invalid JSON: " + cleaned.prefix(1).lowercased() + cleaned.dropFirst()
    }
}
