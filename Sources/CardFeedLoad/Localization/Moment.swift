import CardFeedMustache

/// A moment as `datetime` attribute text, in UTC, and as text for people ("Nov 14, 2023") in
/// the site's time zone (`StringTable.moment` makes one in the page's language).
package final class Moment: MustacheObject {
    init(iso: String, text: String) {
        self.iso = iso
        self.text = text
    }

    let iso: String
    package let text: String

    package enum Key: String, CaseIterable, Sendable { case iso, text }
    static let fields = MustacheFields(Key.self)

    package func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .iso: .text(iso)
        case .text: .text(text)
        case nil: nil
        }
    }
}
