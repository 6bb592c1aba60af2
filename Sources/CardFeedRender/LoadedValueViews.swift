import CardFeedLoad
import CardFeedMustache

/// A date (`created`, `updated`, `expires`) as templates see it: `iso` and `text`.
struct MomentView: TemplateModel {
    let moment: Moment

    init(_ moment: Moment) { self.moment = moment }

    static let names = ViewNames<Self>("date", [
        .text("iso", "The time in ISO 8601, for `<time datetime>`.") { $0.moment.iso },
        .text("text", "The day as the page's language writes it: `Mar 2, 2026`.") { $0.moment.text },
    ])
}

/// `{{strings.unread}}` in templates: the string table's texts by name.
final class StringsView: MustacheObject {
    private let values: MustacheNumbered<MustacheValue>

    init(table: StringTable) { values = MustacheNumbered(table.values.map { ($0.key, .text($0.value)) }) }

    func value(for name: MustacheName) -> MustacheValue? { values[name] }
}
