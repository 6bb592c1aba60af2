/// The built-in card templates (`card`, `cards/<type>`, `partials/image`), written out in Swift.
///
/// Rendering a card through swift-mustache costs about 50 µs of CPU: every name is looked up
/// through the context stack with protocol casts, and that was three quarters of a 100,000-card
/// build. A site that keeps the built-in card templates gets exactly the same HTML from this
/// writer at a fraction of the cost; a site that overrides any of them (or picks a template
/// in a card's extras) is rendered by swift-mustache as before.
///
/// The Mustache files stay the definition: `BuiltinCardWriterTests` renders thousands of cards
/// of every shape both ways and requires byte-identical output, so a change to a built-in
/// template that is not made here too fails the tests.
struct BuiltinCardWriter {
    /// The templates this writer stands for: when the site overrides one, Mustache renders.
    static func templates(for type: CardType) -> [String] { ["card", "partials/image", TemplateSet.cardTemplate(type)] }

    func render(_ view: CardView) -> String {
        let card = view.card
        let settings = view.settings
        var out = ""
        out.reserveCapacity(1024 + (view.descriptionHTML?.utf8.count ?? 0))

        // <article> with the data attributes of the HTML contract.
        let type = card.type.rawValue
        out += "<article class=\"card card--\(type)\" id=\"\(view.anchor)\" data-card-id=\""
        out += escape(card.id)
        out += "\" data-card-type=\"\(type)\""
        if !card.viewed { out += " data-unread" }
        if card.pinned { out += " data-pinned" }
        if card.dismissible { out += " data-dismissible" }
        if card.useWebView && card.url != nil { out += " data-use-webview" }
        out += ">\n"

        let newTab = card.url.map(settings.links.opensInNewTab) ?? false
        let target = newTab ? " target=\"_blank\" rel=\"noopener\"" : ""

        // The media block of each type.
        switch card.type {
        case .bannerImage:
            out += "<div class=\"card__media\">"
            if let url = card.url { out += "<a class=\"card__image-link\" href=\"\(escape(url))\"\(target)>" }
            writeImage(view, into: &out)
            if card.url != nil { out += "</a>" }
            out += "</div>\n"
        case .captionedImage:
            out += "<div class=\"card__media\">"
            writeImage(view, into: &out)
            out += "</div>\n"
        case .shortNews:
            out += "<div class=\"card__media card__media--thumb\">"
            writeImage(view, into: &out)
            out += "</div>\n"
        case .crossPromotionSmall:
            out += "<div class=\"card__media card__media--icon\">"
            writeImage(view, into: &out)
            out += "</div>\n"
        case .textAnnouncement, .control:
            break
        }

        // The body: none for banners.
        if card.type != .bannerImage {
            out += "<div class=\"card__body\">\n"
            if card.type == .crossPromotionSmall {
                writeCrossPromotionContent(view, into: &out)
                writeCrossPromotionFooter(view, target: target, into: &out)
            } else {
                writeContent(view, target: target, into: &out)
                writeFooter(view, target: target, into: &out)
            }
            out += "</div>\n"
        }

        // Indicators.
        if card.pinned {
            let icon = settings.images.pinnedIcon(alt: settings.strings["pinned"])
            out += "<img class=\"card__pin\" src=\"\(escape(icon.src))\""
            if let srcset = icon.srcset { out += " srcset=\"\(escape(srcset))\"" }
            out += " alt=\"\(escape(icon.alt))\" width=\"\(icon.width.map(String.init) ?? "")\" height=\"\(icon.height.map(String.init) ?? "")\">\n"
        }
        if !card.viewed {
            out += "<span class=\"card__unread\"><span class=\"visually-hidden\">\(escape(settings.strings["unread"]))</span></span>\n"
        }
        out += "</article>\n"
        return out
    }

    /// `partials/image`, with the newline its file ends with.
    private func writeImage(_ view: CardView, into out: inout String) {
        let image = view.settings.images.cardImage(view.card)
        out += "<img class=\"card__image"
        if image.placeholder { out += " card__image--placeholder" }
        out += "\" src=\"\(escape(image.src))\""
        if let srcset = image.srcset { out += " srcset=\"\(escape(srcset))\"" }
        out += " alt=\"\(escape(image.alt))\""
        if let width = image.width { out += " width=\"\(width)\" height=\"\(image.height.map(String.init) ?? "")\"" }
        out += " loading=\"lazy\" decoding=\"async\">\n"
    }

    private func writeContent(_ view: CardView, target: String, into out: inout String) {
        let card = view.card
        if let title = card.title {
            out += "<h2 class=\"card__title\">"
            if let url = card.url { out += "<a href=\"\(escape(url))\"\(target)>" }
            out += escape(title)
            if card.url != nil { out += "</a>" }
            out += "</h2>\n"
        }
        if let description = view.descriptionHTML {
            out += "<div class=\"card__description\">\(description)</div>\n"
        }
    }

    private func writeFooter(_ view: CardView, target: String, into out: inout String) {
        let card = view.card
        out += "<footer class=\"card__footer\">\n"
        writeDate(view, into: &out)
        writeCategories(view, into: &out)
        if let url = card.url {
            let text = card.domain ?? CardView.host(of: url) ?? url
            out += "<a class=\"card__link\" href=\"\(escape(url))\"\(target)>\(escape(text))</a>\n"
        }
        writePermalink(view, into: &out)
        out += "</footer>\n"
    }

    private func writeCrossPromotionContent(_ view: CardView, into out: inout String) {
        let card = view.card
        let strings = view.settings.strings
        if let caption = card.caption { out += "<p class=\"card__caption\">\(escape(caption))</p>\n" }
        if let title = card.title { out += "<h2 class=\"card__title\">\(escape(title))</h2>\n" }
        if let subtitle = card.subtitle { out += "<p class=\"card__subtitle\">\(escape(subtitle))</p>\n" }
        let reviews = card.reviews.map { escape(strings.reviews($0)) }
        if let rating = card.rating {
            let view = RatingView(rating, strings: strings)
            out += "<p class=\"card__rating\"><span class=\"stars\" aria-hidden=\"true\">"
            for star in view.stars { out += "<span class=\"star star--\(star.kind)\">★</span>" }
            out += "</span> <span class=\"visually-hidden\">\(escape(view.text))</span>"
            if let reviews { out += " <span class=\"card__reviews\">(\(reviews))</span>" }
            out += "</p>\n"
        } else if let reviews {
            out += "<p class=\"card__rating\"><span class=\"card__reviews\">\(reviews)</span></p>\n"
        }
    }

    private func writeCrossPromotionFooter(_ view: CardView, target: String, into out: inout String) {
        let card = view.card
        let price = PriceView(card, strings: view.settings.strings)
        out += "<footer class=\"card__footer\">\n"
        if let url = card.url {
            let label = price?.text ?? view.settings.strings["view"]
            out += "<a class=\"card__cta\" href=\"\(escape(url))\"\(target)>\(escape(label))"
            out += "<span class=\"visually-hidden\">: \(escape(card.title ?? ""))</span></a>\n"
        } else if let price {
            out += "<span class=\"card__cta\">\(escape(price.text))</span>\n"
        }
        writeDate(view, into: &out)
        writeCategories(view, into: &out)
        writePermalink(view, into: &out)
        out += "</footer>\n"
    }

    private func writeDate(_ view: CardView, into out: inout String) {
        guard let created = view.card.created.map(view.settings.strings.moment) else { return }
        out += "<time class=\"card__date\" datetime=\"\(created.iso)\">\(escape(created.text))</time>\n"
    }

    private func writeCategories(_ view: CardView, into out: inout String) {
        for category in view.card.categories {
            let link = CategoryView(.category(category), strings: view.settings.strings)
            out += "<a class=\"card__category\" href=\"\(escape(link.href))\">\(escape(link.title))</a>\n"
        }
    }

    private func writePermalink(_ view: CardView, into out: inout String) {
        let label = escape(view.settings.strings["linkToCard"])
        out += "<a class=\"card__permalink\" href=\"\(escape(view.permalink))\" title=\"\(label)\"><span aria-hidden=\"true\">#</span><span class=\"visually-hidden\">\(label)</span></a>\n"
    }

    private func escape(_ text: String) -> String { FastHTMLContentType().escapeText(text) }
}
