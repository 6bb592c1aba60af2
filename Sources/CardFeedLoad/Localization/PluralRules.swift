/// CLDR's cardinal plural categories, and the rules that pick one for a whole number in a
/// language (https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html).
/// Counts in the pages are whole numbers, so only the rules' integer part is needed. A string
/// with a count has a key per category (`reviewsOne`, `reviewsFew`, `reviewsOther`); a
/// table that lacks the category's form uses its `Other` form.
public enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other

    /// The suffix of the string key for this form: `One` in `reviewsOne`.
    var keySuffix: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The category of `n` in `locale` (a language tag; its language subtag decides).
    public static func of(_ n: Int, locale: String) -> PluralCategory {
        let language = locale.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        let n = abs(n)
        let mod10 = n % 10, mod100 = n % 100
        switch language {
        case "ja", "zh", "ko", "vi", "th", "id", "ms", "lo", "my", "km", "yue":
            return .other
        case "fr", "pt":
            // 0 and 1 take the singular ("0 carte", "1 carte"); a million and its multiples
            // "many" ("1 000 000 de cartes").
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case "hi", "bn", "fa", "gu", "kn", "zu", "am", "hy", "ff", "kab":
            return n <= 1 ? .one : .other
        case "ru", "uk", "be":
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "pl":
            if n == 1 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "cs", "sk":
            if n == 1 { return .one }
            return (2...4).contains(n) ? .few : .other
        case "hr", "sr", "bs", "sh":
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .other
        case "lt":
            if mod10 == 1 && !(11...19).contains(mod100) { return .one }
            if (2...9).contains(mod10) && !(11...19).contains(mod100) { return .few }
            return .other
        case "lv":
            if mod10 == 0 || (11...19).contains(mod100) { return .zero }
            if mod10 == 1 && mod100 != 11 { return .one }
            return .other
        case "ro":
            if n == 1 { return .one }
            if n == 0 || (1...19).contains(mod100) { return .few }
            return .other
        case "sl":
            switch mod100 {
            case 1: return .one
            case 2: return .two
            case 3, 4: return .few
            default: return .other
            }
        case "he", "iw":
            if n == 1 { return .one }
            if n == 2 { return .two }
            return .other
        case "ar":
            if n == 0 { return .zero }
            if n == 1 { return .one }
            if n == 2 { return .two }
            if (3...10).contains(mod100) { return .few }
            if (11...99).contains(mod100) { return .many }
            return .other
        case "ga":
            switch n {
            case 1: return .one
            case 2: return .two
            case 3...6: return .few
            case 7...10: return .many
            default: return .other
            }
        case "cy":
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            case 3: return .few
            case 6: return .many
            default: return .other
            }
        case "it", "es", "ca":
            // CLDR 42+: a million and its multiples take "many" ("1 millón de tarjetas").
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        default:
            // English, German, Dutch, the Scandinavian languages, Greek, Finnish, Hungarian,
            // Turkish and most others: one for 1, other for the rest.
            return n == 1 ? .one : .other
        }
    }
}
