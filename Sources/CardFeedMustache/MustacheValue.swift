import Foundation

/// What a name means to a template. Views answer with these instead of `Any`, so that a lookup
/// is a switch and never a cast or a reflection.
public enum MustacheValue: Sendable {
    /// Found, but empty: renders as nothing and skips a section.
    case null
    case bool(Bool)
    case int(Int)
    /// Text: `{{name}}` escapes it, `{{{name}}}` writes it as it is. Always truthy, even empty.
    case text(String)
    case object(any MustacheObject)
    case list([MustacheValue])
    /// A list of `count` items whose rendering is left to the caller: a section over it becomes
    /// a hole in the output (see `MustacheOutput.holes`), which the caller fills item by item.
    /// A page's cards are such a list, so that a page of 100,000 cards is streamed.
    case deferredList(count: Int)

    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int, .text, .object: true
        case .list(let items): !items.isEmpty
        case .deferredList(let count): count > 0
        }
    }

    /// A value's own field, for the parts of a dotted name after the first.
    func field(_ name: MustacheName) -> MustacheValue? {
        if case .object(let object) = self { return object.value(for: name) }
        return nil
    }
}

/// A value with named fields. A class, so that the context stack and every copy of a value
/// hold it by one reference.
public protocol MustacheObject: AnyObject, Sendable {
    /// The field's value, or nil when this object has no such field, in which case the lookup
    /// goes on to the enclosing context (`{{#link}}{{newTab}}{{/link}}` reads the card's).
    func value(for name: MustacheName) -> MustacheValue?
}

/// One part of a name as a template writes it (`created` and `iso` in `{{created.iso}}`), with a
/// number given when templates are parsed, so that a view finds its field with an integer
/// lookup rather than by comparing strings.
public struct MustacheName: Sendable, Hashable, CustomStringConvertible {
    public let string: String
    public let id: Int

    public init(_ string: String) {
        self.string = string
        id = Interner.shared.id(string)
    }

    public var description: String { string }
}

/// The names a view answers to, by their number: build one per view type from its field names
/// (`static let fields = MustacheFields(Key.self)`), then `fields[name]` is the view's key.
public struct MustacheFields<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// By name number: numbers are small and given in order, so an array beats hashing. A name
    /// numbered after this table was made is none of its keys.
    private let keys: [Key?]

    public init(_ type: Key.Type) {
        keys = MustacheNumbered(Key.allCases.map { ($0.rawValue, $0) }).values
    }

    public subscript(name: MustacheName) -> Key? { name.id < keys.count ? keys[name.id] : nil }

    /// Every field name, for checking templates.
    public static var names: [String] { Key.allCases.map(\.rawValue) }
}

/// Values by the number of their name, for a view whose names are known when it is made
/// (`{{strings.name}}`).
public struct MustacheNumbered<Value: Sendable>: Sendable {
    let values: [Value?]

    public init(_ pairs: [(name: String, value: Value)]) {
        let numbered = pairs.map { (Interner.shared.id($0.name), $0.value) }
        var values = [Value?](repeating: nil, count: (numbered.map(\.0).max() ?? -1) + 1)
        for (id, value) in numbered { values[id] = value }
        self.values = values
    }

    public subscript(name: MustacheName) -> Value? { name.id < values.count ? values[name.id] : nil }
}

/// Numbers for names, the same for the same string in the whole process.
final class Interner: @unchecked Sendable {
    static let shared = Interner()
    private var ids: [String: Int] = [:]
    private let lock = NSLock()

    func id(_ string: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let id = ids[string] { return id }
        let id = ids.count
        ids[string] = id
        return id
    }

    /// The number of a name some template or view already has, without giving a new one: names
    /// that come from data (a card's `template` extra, a dynamic partial's value) must not grow
    /// the table for the life of the process.
    func existingID(_ string: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return ids[string]
    }
}
