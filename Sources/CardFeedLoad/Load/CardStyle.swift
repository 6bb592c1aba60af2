import CardFeedModel
/// The custom properties one card's `background_color`, `text_color` and `accent_color` extras
/// set (written to card-styles.css). A styled card keeps its colours in both schemes, and its
/// text stays readable whatever subset of the three it names:
/// - the text colour applies to everything on the card: title, text, date, links and chips;
/// - with only a background, the text is black or white, whichever contrasts more with it
///   (with only a text colour, the background likewise);
/// - the accent colours the unread bar, the chips' tint and the button, whose label is black or
///   white against it; links take the text colour, so the accent never has to be legible on
///   the card's background.
enum CardStyle {
    /// Values are CSS colours already checked (`CSSValue.isColor`); the result is sorted by name.
    static func properties(background: String?, text: String?, accent: String?) -> [CSSProperty] {
        var properties: [CSSProperty] = []
        let surface = background ?? text.map(ReadableColor.contrasting)
        let foreground = text ?? background.map(ReadableColor.contrasting)
        if let surface {
            properties.append(CSSProperty(name: "surface", value: surface))
            properties.append(CSSProperty(name: "border", value: "color-mix(in srgb, var(--cf-text) 16%, var(--cf-surface))"))
            properties.append(CSSProperty(name: "code-bg", value: "color-mix(in srgb, var(--cf-text) 8%, var(--cf-surface))"))
        }
        if let foreground {
            properties.append(CSSProperty(name: "text", value: foreground))
            properties.append(CSSProperty(name: "muted", value: foreground))
        }
        if let accent {
            properties.append(CSSProperty(name: "accent", value: accent))
            properties.append(CSSProperty(name: "accent-text", value: ReadableColor.contrasting(accent)))
            properties.append(CSSProperty(name: "unread", value: accent))
        }
        if !properties.isEmpty { properties.append(CSSProperty(name: "link", value: "var(--cf-text)")) }
        return properties.sorted { $0.name < $1.name }
    }
}
