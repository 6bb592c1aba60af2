@testable import CardFeedMustache
import Foundation
import Testing
@testable import CardFeedRender

/// Every case of the official Mustache specification (Spec/, MIT, from mustache/spec) that the
/// engine supports: all but the optional lambdas.
@Suite struct SpecTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var name: String
        var template: String
        var partials: [String: String]
        var data: JSON
        var expected: String

        var testDescription: String { "\(file): \(name)" }
    }

    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~dynamic-names", "~inheritance"]

    static let cases: [Case] = files.flatMap { file -> [Case] in
        struct SpecFile: Decodable {
            struct Test: Decodable {
                var name: String
                var template: String
                var partials: [String: String]?
                var data: JSON
                var expected: String
            }
            var tests: [Test]
        }
        guard let url = Bundle.module.url(forResource: file, withExtension: "json", subdirectory: "Spec"),
            let data = try? Data(contentsOf: url), let spec = try? JSONDecoder().decode(SpecFile.self, from: data)
        else { return [Case(file: file, name: "(file cannot be read)", template: "", partials: [:], data: .null, expected: "x")] }
        return spec.tests.map { Case(file: file, name: $0.name, template: $0.template, partials: $0.partials ?? [:], data: $0.data, expected: $0.expected) }
    }

    @Test func everyFileHasCases() {
        for file in Self.files { #expect(Self.cases.filter { $0.file == file }.count >= 7, "\(file)") }
    }

    @Test(arguments: cases) func spec(_ test: Case) throws {
        var library = MustacheLibrary(escape: HTMLEscaping.append)
        for (name, text) in test.partials { library.register(try MustacheTemplate(text), named: name) }
        let output = try library.render(try MustacheTemplate(test.template), test.data.value, name: "test")
        #expect(output.text == test.expected, "\(test.file): \(test.name)")
    }
}

/// The spec's data: JSON, seen by templates as Mustache values (numbers as their text).
enum JSON: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSON].self)) }
    }

    var value: MustacheValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .text(value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value))
        case .string(let value): .text(value)
        case .array(let items): .list(items.map(\.value))
        case .object(let fields): .object(Fields(fields))
        }
    }

    final class Fields: MustacheObject {
        let fields: [String: JSON]
        init(_ fields: [String: JSON]) { self.fields = fields }
        func value(for name: MustacheName) -> MustacheValue? { fields[name.string]?.value }
    }
}

@Suite struct LibraryTests {
    /// Looking a template up by a name that comes from data (a card's `template` extra) finds
    /// registered templates and gives no number to the others.
    @Test func lookingUpAnUnknownNameFindsNothing() throws {
        var library = MustacheLibrary(escape: HTMLEscaping.append)
        library.register(try MustacheTemplate("x"), named: "cards/promo")
        #expect(library.name(of: "cards/promo") != nil)
        let unknown = "cards/never-registered-\(UUID().uuidString)"
        #expect(library.name(of: unknown) == nil)
        #expect(Interner.shared.existing(unknown) == nil, "the name was given a number")
    }
}
