import CardFeedLoad
import CardFeedMustache

/// A date (`created`, `updated`, `expires`) as templates see it: `iso` and `text`.
final class MomentView: MustacheObject {
    let moment: Moment

    init(_ moment: Moment) { self.moment = moment }

    enum Key: String, ViewKey {
        case iso, text

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("date", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .iso: .text(moment.iso)
        case .text: .text(moment.text)
        case nil: nil
        }
    }
}

/// `{{strings.unread}}` in templates: the string table's texts by name.
final class StringsView: MustacheObject {
    private let values: MustacheNumbered<MustacheValue>

    init(table: StringTable) { values = MustacheNumbered(table.values.map { ($0.key, .text($0.value)) }) }

    func value(for name: MustacheName) -> MustacheValue? { values[name] }
}
