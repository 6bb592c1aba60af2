/// A stored property left out of its type's `Hashable` and `Equatable`, which the compiler
/// writes from every other property: for the few parts of a value that must not count in a
/// reuse key. Each use says why.
@propertyWrapper
public struct KeyExempt<Value: Sendable>: Sendable, Hashable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Any two are equal, and none adds to a hash: that is the point.
    public static func == (a: Self, b: Self) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

extension KeyExempt: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(from: decoder)
    }
}

