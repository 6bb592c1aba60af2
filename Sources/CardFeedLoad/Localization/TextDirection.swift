/// Which way text runs: a page's, from its locale, and a card's, from its `language` or its words.
public enum TextDirection: String, Sendable, Hashable, Decodable {
    case ltr, rtl

    /// Languages written right to left (CLDR's likely scripts Arab, Hebr, Thaa, Syrc, Nkoo, Adlm).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "iw", "fa", "ur", "yi", "ji", "ps", "sd", "ug", "dv", "ckb", "syr", "arc", "nqo", "ks", "pnb", "lrc", "mzn", "glk", "bal", "azb",
    ]
    static let rightToLeftScripts: Set<String> = ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "samr", "mand"]
    static let leftToRightScripts: Set<String> = ["latn", "cyrl", "grek", "deva", "hans", "hant", "jpan", "kore", "thai", "armn", "geor"]

    /// The direction of a language tag (`ar`, `he-IL`, `az-Arab`, `ku-Latn`): its script subtag
    /// when it has one the table knows, else its language's. Nil when the tag does not say.
    public static func of(languageTag tag: String) -> TextDirection? {
        let parts = tag.lowercased().split(separator: "-")
        guard let language = parts.first else { return nil }
        if parts.count > 1, parts[1].count == 4 {
            let script = String(parts[1])
            if rightToLeftScripts.contains(script) { return .rtl }
            if leftToRightScripts.contains(script) { return .ltr }
        }
        return rightToLeftLanguages.contains(String(language)) ? .rtl : .ltr
    }

    /// The direction of `text` by its first letter, as HTML's `dir="auto"` decides (Unicode's
    /// first strong character; digits, punctuation, marks and symbols are neutral). Nil for
    /// text without a letter. An ASCII letter, the usual first letter, settles it on the bytes.
    public static func of(text: String) -> TextDirection? {
        for byte in text.utf8 {
            if byte >= 0x80 { return ofScalars(text) }
            if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") { return .ltr }
        }
        return nil
    }

    private static func ofScalars(_ text: String) -> TextDirection? {
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                return isRightToLeft(scalar) ? .rtl : .ltr
            default: continue
            }
        }
        return nil
    }

    /// Letters of the right-to-left blocks: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
    /// Mandaic and their supplements, the presentation forms, and the RTL planes' scripts.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
