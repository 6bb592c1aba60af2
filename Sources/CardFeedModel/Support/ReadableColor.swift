/// Colours derived in CSS from a colour a site or a card chose, so that what is written in or on
/// it stays readable (WCAG's 4.5:1 for text). Relative colours (`lch(from …)`) do the arithmetic in
/// the browser: LCH's lightness is a function of luminance alone, so a bound on it is a bound on
/// contrast, whatever the hue.
package enum ReadableColor {
    /// Black or white, whichever contrasts more with `color`: the lightness at which both
    /// contrast equally is 49.44, and a lightness beyond 0-100 is clamped to it.
    package static func contrasting(_ color: String) -> String {
        "lch(from \(color) calc((49.44 - l) * infinity) 0 0)"
    }

    /// `color` as text on the built-in light surfaces, also under the 12% accent tint of a
    /// category chip: no lighter than 40, which contrasts 4.9:1 with the darkest such tint (of a
    /// black accent). The chroma is kept within what sRGB shows at that lightness, so that the
    /// browser's gamut mapping does not move the colour.
    package static func onLightSurface(_ color: String) -> String {
        "lch(from \(color) min(l, 40) min(c, 60) h)"
    }

    /// `color` as text on the built-in dark surfaces, also under a chip's 12% accent tint: no
    /// darker than 70, which contrasts 5:1 with the lightest such tint (of a white accent).
    package static func onDarkSurface(_ color: String) -> String {
        "lch(from \(color) max(l, 70) min(c, 60) h)"
    }
}
