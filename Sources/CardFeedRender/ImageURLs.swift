import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// An `<img>` as templates see it.
struct ImageView: TemplateModel {
    let src: String
    /// `srcset` with the @2x and @3x variants, when the site has them.
    let srcset: String?
    let alt: String
    /// Intrinsic size, the file's own or else from the card's aspect ratio, so the browser
    /// reserves the box before the lazy-loaded image arrives (CSS scales it; no inline style
    /// needed).
    let width: Int?
    let height: Int?
    let placeholder: Bool
    /// The file is narrower than `ImageURLs.smallWidth`: the stylesheet shows it at its own
    /// size instead of stretching it, blurred, across the card.
    var small = false

    /// The same image with another text alternative.
    func with(alt: String) -> ImageView {
        ImageView(src: src, srcset: srcset, alt: alt, width: width, height: height, placeholder: placeholder, small: small)
    }

    static let names = ViewNames<Self>("image", [
        .text("src", "Its address.") { $0.src },
        .text("srcset", "Its @2x and @3x files, where the site has them.") { $0.srcset },
        .text("alt", "Its text alternative.") { $0.alt },
        .number("width", "Its width, where it is known, so the page keeps its room before it loads.") { $0.width },
        .number("height", "Its height, likewise.") { $0.height },
        .flag("placeholder", "True for the placeholder shown for a card without an image.") { $0.placeholder },
        .flag("small", "True for an image narrower than 600 pixels, shown at its own size.") { $0.small },
    ])
}

/// The URLs of the two replaceable built-in images (placeholder and pinned icon) with their
/// high-density variants. A setting (see `RenderSettings.Values`).
package struct BuiltinImages: Sendable, Hashable, Decodable {
    static let placeholderName = "images/appboy_cc_noimage_lrg"
    static let pinnedIconName = "images/appboy_cc_icon_pinned"

    /// An image's `src`, and its `srcset` when the site has the @2x and @3x variants.
    package struct Variants: Sendable, Hashable, Decodable {
        var src: String
        var srcset: String?
    }

    let placeholder: Variants
    let pinnedIcon: Variants

    /// `assets` lists the output's asset files; `siteOverrides` those the site replaced, so that
    /// a site's 1x image is not paired with the built-in 2x and 3x of another picture.
    package init(assets: Set<String>, siteOverrides: Set<String>) {
        func variants(_ name: String) -> Variants {
            let base = name + ".png"
            let replaced = siteOverrides.contains(base)
            let dense = ["@2x", "@3x"].enumerated().compactMap { offset, suffix -> String? in
                let path = name + suffix + ".png"
                guard assets.contains(path), siteOverrides.contains(path) == replaced else { return nil }
                return "assets/\(path) \(offset + 2)x"
            }
            let src = "assets/" + base
            return Variants(src: src, srcset: dense.isEmpty ? nil : ([src + " 1x"] + dense).joined(separator: ", "))
        }
        placeholder = variants(Self.placeholderName)
        pinnedIcon = variants(Self.pinnedIconName)
    }
}

/// The `<img>` of card images and of the built-in images.
struct ImageURLs: Sendable {
    /// The size of the built-in placeholder at 1x; a site's replacement is shown in the same box.
    static let placeholderSize = (width: 600, height: 400)

    /// Narrower than this (in pixels), an image is "small": scaled to the width of a card on a
    /// desktop (about 830 px), it would be blurred.
    static let smallWidth = 600

    private let placeholder: ImageView
    private let pinned: ImageView
    /// Reads the site's image files (see `ImageSize`).
    let sizes: ImageSizes

    init(_ builtins: BuiltinImages, sizes: ImageSizes) {
        self.sizes = sizes
        placeholder = ImageView(
            src: builtins.placeholder.src, srcset: builtins.placeholder.srcset, alt: "", width: Self.placeholderSize.width,
            height: Self.placeholderSize.height, placeholder: true)
        pinned = ImageView(src: builtins.pinnedIcon.src, srcset: builtins.pinnedIcon.srcset, alt: "", width: 24, height: 24, placeholder: false)
    }

    func pinnedIcon(alt: String) -> ImageView {
        pinned.with(alt: alt)
    }

    /// The card's own image (not the placeholder) for a reader away from the site (a feed
    /// reader, a link preview): its address absolute, without sizes. Nil for a card without one.
    func ownImage(_ card: Card, baseURL: String) -> ImageView? {
        let view = cardImage(card)
        guard !view.placeholder else { return nil }
        return ImageView(src: URLCheck.resolve(view.src, against: baseURL), srcset: nil, alt: view.alt, width: nil, height: nil, placeholder: false)
    }

    func cardImage(_ card: Card) -> ImageView {
        // As the Braze SDKs do: the card's image_alt; else an image beside the card's own text is
        // decorative (its title is read anyway, not twice), and the image of a card that shows
        // nothing else (a banner), its only content and often its link, is named from the card
        // (the build warns that image_alt is missing).
        let alt = card.imageAlt ?? (card.showsOnlyItsImage ? card.wordsForItsImage ?? "" : "")
        let src: String
        switch card.image {
        case .remote(let url): src = Formatting.attributeURL(url)
        case .asset(let path):
            src = "assets/" + Formatting.attributeURL(path)
            // The file knows its size better than the card's hint.
            if let size = sizes.size(of: path) {
                return ImageView(
                    src: src, srcset: nil, alt: alt, width: size.width, height: size.height, placeholder: false,
                    small: size.width < Self.smallWidth)
            }
        case nil:
            return placeholder.with(alt: alt)
        }
        guard let ratio = card.aspectRatio, ratio.isFinite, ratio > 0.05, ratio < 50 else {
            return ImageView(src: src, srcset: nil, alt: alt, width: nil, height: nil, placeholder: false)
        }
        return ImageView(src: src, srcset: nil, alt: alt, width: 1200, height: max(1, Int((1200 / ratio).rounded())), placeholder: false)
    }
}

