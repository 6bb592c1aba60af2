import Foundation
import CardFeedModel

/// The theme properties a site may set, by what kind of value each takes. These are the custom
/// properties of the built-in stylesheet, without their `--cf-` prefix.
enum ThemeProperty {
    enum Kind: String { case color = "a colour", length = "a length", number = "a number", font = "a font list", shadow = "a shadow"
        case position = "a position such as \"center top\" or \"50% 20%\"", columns = "a whole number from 1 to 6" }

    static let kinds: [String: Kind] = [
        "bg": .color, "surface": .color, "text": .color, "muted": .color, "border": .color, "accent": .color,
        "accent-text": .color, "link": .color, "unread": .color, "pinned": .color, "star": .color, "star-empty": .color,
        "focus": .color, "code-bg": .color,
        "font": .font, "font-size": .length, "line-height": .number, "page-width": .length, "gap": .length,
        "radius": .length, "card-padding": .length, "shadow": .shadow,
        "image-max-height": .length, "image-position": .position,
        "columns": .columns, "column-width": .length,
    ]

    static func isValid(_ value: String, as kind: Kind) -> Bool {
        switch kind {
        case .color: CSSValue.isColor(value)
        case .length: CSSValue.isLength(value)
        case .number: CSSValue.isNumber(value) || CSSValue.isLength(value)
        case .font: CSSValue.isFontList(value)
        case .shadow: CSSValue.isShadow(value)
        case .position: CSSValue.isPosition(value)
        case .columns: Int(value).map { (1...6).contains($0) } ?? false
        }
    }
}
