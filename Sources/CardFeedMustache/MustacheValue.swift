import Foundation
import Synchronization

/// What a name means to a template. Views answer with these instead of `Any`, so that a lookup
/// is a switch and never a cast or a reflection.
public enum MustacheValue: Sendable {
    /// Found, but empty: renders as nothing and skips a section.
    case null
    case bool(Bool)
    case int(Int)
    /// Text: `{{name}}` escapes it, `{{{name}}}` writes it as it is. Always truthy, even empty.
    case text(String)
    case object(MustacheObject)
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

/// A value with named fields (a view): a final class whose properties are constants, which the
/// compiler checks through `Sendable`, since both rendering threads read views they share.
public protocol MustacheObject: AnyObject, Sendable {
    /// The field's value, or nil when this object has no such field, in which case the lookup
    /// goes on to the enclosing context (`{{#link}}{{newTab}}{{/link}}` reads the card's).
    func value(for name: MustacheName) -> MustacheValue?
}

/// One part of a name as a template writes it (`created` and `iso` in `{{created.iso}}`), with a
/// number given when templates are parsed, so that a view finds its field with an integer
/// lookup rather than by comparing strings. Plain data: its text is kept for the life of the
/// process by `Interner`, so copying a name (a card looks up some sixty) copies no reference.
public struct MustacheName: Sendable, Hashable, CustomStringConvertible {
    public let id: Int
    fileprivate let utf8: PlainBuffer<UInt8>

    public init(_ string: String) {
        self = Interner.shared.name(string)
    }

    fileprivate init(id: Int, utf8: PlainBuffer<UInt8>) {
        self.id = id
        self.utf8 = utf8
    }

    public var string: String { utf8.string }
    public var description: String { string }

    public static func == (left: MustacheName, right: MustacheName) -> Bool { left.id == right.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What a view answers to each of its names, by the name's number: build one per view type
/// from its names (`MustacheFields([("href", read), ...])`), then `fields[name]` is what it
/// answers to that name.
public struct MustacheFields<Value: Sendable>: Sendable {
    /// By name number: numbers are small and given in order, so an array beats hashing. A name
    /// numbered after this table was made is none of its names. Plain memory, never freed (one
    /// table per view type, made once): an array would be retained and released for every
    /// name a template looks up, by both rendering threads.
    @usableFromInline let values: PlainBuffer<Value?>

    public init(_ pairs: [(name: String, value: Value)]) {
        values = PlainBuffer(MustacheNumbered(pairs).values)
    }

    @inlinable
    public subscript(name: MustacheName) -> Value? { name.id < values.count ? values[name.id] : nil }
}

/// Values by the number of their name, for a view whose names are known when it is made
/// (`{{strings.name}}`).
public struct MustacheNumbered<Value: Sendable>: Sendable {
    let values: [Value?]

    public init(_ pairs: [(name: String, value: Value)]) {
        let numbered = pairs.map { (Interner.shared.name($0.name).id, $0.value) }
        var values = [Value?](repeating: nil, count: (numbered.map(\.0).max() ?? -1) + 1)
        for (id, value) in numbered { values[id] = value }
        self.values = values
    }

    public subscript(name: MustacheName) -> Value? { name.id < values.count ? values[name.id] : nil }
}

/// Numbers for names, the same for the same string in the whole process, and each name's
/// text, which is never freed: names come from templates and views, a few hundred at most.
final class Interner: Sendable {
    static let shared = Interner()
    private let names = Mutex<[String: MustacheName]>([:])

    func name(_ string: String) -> MustacheName {
        names.withLock { names in
            if let name = names[string] { return name }
            let name = MustacheName(id: names.count, utf8: PlainBuffer(Array(string.utf8)))
            names[string] = name
            return name
        }
    }

    /// The name of a template or view that already has a number, without giving a new one:
    /// names that come from data (a card's `template` extra, a dynamic partial's value) must
    /// not grow the table for the life of the process.
    func existing(_ string: String) -> MustacheName? {
        names.withLock { $0[string] }
    }
}
