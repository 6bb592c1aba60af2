/// A moment as `datetime` attribute text, in UTC, and as text for people ("Nov 14, 2023") in
/// the site's time zone (`StringTable.moment` makes one in the page's language). Templates see
/// it through `MomentView`.
package struct Moment: Sendable {
    package let iso: String
    package let text: String

    init(iso: String, text: String) {
        self.iso = iso
        self.text = text
    }
}
