import Foundation

/// Edits of a value generated from its type: for every stored property, found with `Mirror` (and
/// inside nested structs, optionals and enum payloads, every property of theirs), a copy of the
/// value with that one property changed. The copy is made by the type's synthesised `Decodable`,
/// reading every property from the original but the one changed; so no list of properties is
/// written here or anywhere, and a property added to the type is edited with no change here.
///
/// How a property is changed depends only on its type: text gets a suffix, a flag flips, a number
/// moves, an enum case becomes the next one, an optional also becomes nil, an array loses its
/// last element (and, when its elements are changed as a whole, has its first one changed), a
/// set of text gains an element, a dictionary of text changes one value. A property of a type not known here,
/// or one the sample leaves nil or empty, is a problem the test reports (the sample must set it,
/// or a rule for its type be added here), never skipped in silence.
struct ModelEdits<Root: Decodable> {
    struct Edit {
        /// The property changed, as a dotted path of property names ("image.asset._0"), with
        /// " = nil" when it is made nil.
        var path: String
        var value: Root
    }

    private(set) var edits: [Edit] = []
    /// Properties that could not be edited, with the reason.
    private(set) var problems: [String] = []
    /// Properties left alone because `isExempt` said so.
    private(set) var exempt: [String] = []

    /// Every edit of `sample`. A property for whose value `isExempt` is true is left alone.
    init(_ sample: Root, isExempt: (Any) -> Bool = { _ in false }) throws {
        var changes: [(path: [String], replacement: Any)] = []
        collect(sample, at: [], isExempt: isExempt, into: &changes)
        for (path, replacement) in changes {
            let decoder = RebuildingDecoder(base: sample, path: path[...], replacement: replacement)
            let name = path.joined(separator: ".") + (replacement is NilReplacement ? " = nil" : "")
            edits.append(Edit(path: name, value: try Root(from: decoder)))
        }
    }

    private mutating func collect(_ value: Any, at path: [String], isExempt: (Any) -> Bool, into changes: inout [(path: [String], replacement: Any)]) {
        let name = path.isEmpty ? "the value" : path.joined(separator: ".")
        if isExempt(value) { return exempt.append(name) }
        let mirror = Mirror(reflecting: value)
        // An optional first: a value cast from `Any` is unwrapped on the way.
        if mirror.displayStyle != .optional, let whole = changed(value) { return changes.append((path, whole)) }
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else {
                return problems.append("\(name) is nil in the sample: give it a value, so that it can be changed")
            }
            changes.append((path, NilReplacement()))
            collect(wrapped, at: path, isExempt: isExempt, into: &changes)
        case .struct:
            for child in mirror.children {
                guard let label = child.label else { continue }
                collect(child.value, at: path + [propertyName(label)], isExempt: isExempt, into: &changes)
            }
        case .enum:
            guard let payload = mirror.children.first, let label = payload.label,
                Mirror(reflecting: payload.value).displayStyle != .tuple
            else {
                return problems.append("\(name): no way to change a \(type(of: value)) (add one to ModelEdits.changed, or make it CaseIterable)")
            }
            // The payload of a case with one value, as its synthesised `Decodable` names it.
            collect(payload.value, at: path + [label, "_0"], isExempt: isExempt, into: &changes)
        case .collection:
            guard !mirror.children.isEmpty else {
                return problems.append("\(name) is empty in the sample: give it an element, so that it can be changed")
            }
            let elements = mirror.children.map(\.value)
            changes.append((path, Array(elements.dropLast())))
            if let first = changed(elements[0]) { changes.append((path, [first] + elements.dropFirst())) }
        default:
            problems.append("\(name): no way to change a \(type(of: value)) (add one to ModelEdits.changed)")
        }
    }

    /// A different value of the same type, for the types that are changed as a whole.
    private func changed(_ value: Any) -> Any? {
        switch value {
        case let text as String: text + "-edited"
        case let flag as Bool: !flag
        case let number as Int: number + 1
        case let number as Int64: number + 1
        case let number as Double: number == 0 ? 1 : number / 2
        case let table as [String: String]: table.keys.min().map { key in table.merging([key: table[key]! + "-edited"]) { $1 } }
        case let set as Set<String>: set.union(["edited"])
        case let enumeration as any CaseIterable: nextCase(enumeration)
        default: nil
        }
    }

    private func nextCase<T: CaseIterable>(_ value: T) -> Any? {
        let cases = Array(T.allCases)
        guard cases.count > 1, let index = cases.firstIndex(where: { "\($0)" == "\(value)" }) else { return nil }
        return cases[(index + 1) % cases.count]
    }
}

/// Stands for nil as the replacement of an optional property.
private struct NilReplacement {}

/// A stored property's name as its coding key has it: a property wrapper's storage `_name` is
/// `name`.
private func propertyName(_ label: String) -> String {
    label.hasPrefix("_") ? String(label.dropFirst()) : label
}

/// Decodes a copy of `base` with the value at `path` replaced. What is off the path is the
/// original's value as it is, taken with `Mirror`; only the values on the path are decoded.
private struct RebuildingDecoder: Decoder {
    let base: Any
    let path: ArraySlice<String>
    let replacement: Any
    /// `base` is an enum case's payload, inside the case's container.
    var isPayload = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(base: unwrapped(base), path: path, replacement: replacement, isPayload: isPayload))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "arrays are replaced whole"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "\(type(of: base)) is replaced whole"))
    }
}

/// The value inside an optional (the value itself when it is not one).
private func unwrapped(_ value: Any) -> Any {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value else { return value }
    return unwrapped(wrapped)
}

private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: Any
    let path: ArraySlice<String>
    let replacement: Any
    let isPayload: Bool
    var codingPath: [any CodingKey] { [] }

    /// The original's parts by coding key: a struct's properties, an enum's case, a payload.
    var children: [(key: String, value: Any)] {
        if isPayload { return [("_0", base)] }
        return Mirror(reflecting: base).children.compactMap { child in child.label.map { (propertyName($0), child.value) } }
    }

    var allKeys: [Key] { children.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { children.contains { $0.key == key.stringValue } }

    func child(_ key: Key) throws -> Any {
        guard let child = children.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "\(type(of: base)) has no \(key.stringValue)"))
        }
        return child.value
    }

    /// The path left inside the child at `key`: nil when the edit is not in it.
    func inner(_ key: Key) -> ArraySlice<String>? { path.first == key.stringValue ? path.dropFirst() : nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if let inner = inner(key), inner.isEmpty { return replacement is NilReplacement }
        let mirror = Mirror(reflecting: try child(key))
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try child(key)
        switch inner(key) {
        case let inner? where inner.isEmpty:
            guard let value = replacement as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "the replacement is a \(Swift.type(of: replacement))"))
            }
            return value
        case let inner?:
            return try T(from: RebuildingDecoder(base: child, path: inner, replacement: replacement))
        case nil:
            guard let value = unwrapped(child) as? T ?? child as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "the original holds a \(Swift.type(of: child))"))
            }
            return value
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        // Asked by an enum's synthesised `Decodable` for its case's payload.
        KeyedDecodingContainer(Container<NestedKey>(base: unwrapped(try child(key)), path: inner(key) ?? [], replacement: replacement, isPayload: true))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "arrays are replaced whole"))
    }

    func superDecoder() throws -> any Decoder { RebuildingDecoder(base: base, path: path, replacement: replacement) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RebuildingDecoder(base: try child(key), path: inner(key) ?? [], replacement: replacement)
    }
}
