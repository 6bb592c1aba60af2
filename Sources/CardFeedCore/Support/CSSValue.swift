import Foundation

/// Checks values that end up in a stylesheet, so that a theme setting or a card's extras can
/// never close a rule or inject one (`red; } body { display: none`).
enum CSSValue {
    /// A colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl()/hsla() with plain numbers and
    /// percentages, or a CSS named colour.
    static func isColor(_ value: String) -> Bool {
        let v = value.trimmingCharacters(in: .whitespaces).lowercased()
        if v.hasPrefix("#") {
            let hex = v.dropFirst()
            return [3, 4, 6, 8].contains(hex.count) && hex.allSatisfy(\.isHexDigit)
        }
        for function in ["rgb(", "rgba(", "hsl(", "hsla("] where v.hasPrefix(function) && v.hasSuffix(")") {
            let inner = v.dropFirst(function.count).dropLast()
            let allowed = Set("0123456789.,%/ -deg")
            return !inner.isEmpty && inner.allSatisfy { allowed.contains($0) }
        }
        return namedColors.contains(v)
    }

    /// A length: 0, or a number with a CSS unit (px, rem, em, %, vw, vh, ch, pt).
    static func isLength(_ value: String) -> Bool {
        let v = value.trimmingCharacters(in: .whitespaces).lowercased()
        if v == "0" { return true }
        for unit in ["px", "rem", "em", "%", "vw", "vh", "ch", "pt"] where v.hasSuffix(unit) {
            return Double(v.dropLast(unit.count)).map { $0 >= 0 } ?? false
        }
        return false
    }

    /// An `object-position`: one or two keywords (left, right, top, bottom, center) or lengths.
    static func isPosition(_ value: String) -> Bool {
        let parts = value.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { ["left", "right", "top", "bottom", "center"].contains($0) || isLength(String($0)) }
    }

    /// A plain number (line heights).
    static func isNumber(_ value: String) -> Bool { Double(value.trimmingCharacters(in: .whitespaces)).map { $0 >= 0 } ?? false }

    /// A font-family list: names, quotes, commas and spaces only, each quote closed (an open one
    /// would run on into the rest of the stylesheet).
    static func isFontList(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || " ,-_'\"".contains($0) }
            && value.filter { $0 == "\"" }.count % 2 == 0 && value.filter { $0 == "'" }.count % 2 == 0
    }

    /// A box-shadow or similar compound value made of lengths, colours and commas.
    static func isShadow(_ value: String) -> Bool {
        !value.isEmpty && value.lowercased().allSatisfy { $0.isLetter || $0.isNumber || " ,.%#()/-".contains($0) }
            && !value.lowercased().contains("url(") && !value.lowercased().contains("expression(")
    }

    static let namedColors: Set<String> = [
        "transparent", "currentcolor", "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque",
        "black", "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse", "chocolate",
        "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan", "darkgoldenrod", "darkgray",
        "darkgreen", "darkgrey", "darkkhaki", "darkmagenta", "darkolivegreen", "darkorange", "darkorchid", "darkred",
        "darksalmon", "darkseagreen", "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise", "darkviolet",
        "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen",
        "fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow", "grey", "honeydew",
        "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon",
        "lightblue", "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey",
        "lightpink", "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray", "lightslategrey",
        "lightsteelblue", "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
        "mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen",
        "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite",
        "navy", "oldlace", "olive", "olivedrab", "orange", "orangered", "orchid", "palegoldenrod", "palegreen",
        "paleturquoise", "palevioletred", "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple",
        "rebeccapurple", "red", "rosybrown", "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell",
        "sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow", "springgreen", "steelblue", "tan",
        "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white", "whitesmoke", "yellow", "yellowgreen",
    ]
}
