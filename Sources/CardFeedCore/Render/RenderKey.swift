import Foundation

extension SiteRenderer {
    /// Every card's render key when the renderer has a cache (nil without one), computed once
    /// for the cards and for the pages that show them.
    func renderKeys(_ cards: ShownCards) -> [Int]? {
        guard cache != nil else { return nil }
        let keys = ConcurrentResults<Int>(count: cards.count)
        let chunk = 512
        DispatchQueue.concurrentPerform(iterations: (cards.count + chunk - 1) / chunk) { index in
            for position in index * chunk..<min(cards.count, (index + 1) * chunk) {
                keys.set(position, renderKey(cards[position], position: position, anchor: cards.anchor(at: position)))
            }
        }
        return keys.values
    }

    /// What a card's HTML depends on: the card, its place (its permalink names its page), the
    /// templates and the settings. `serve` reuses a rendered card under this key.
    func renderKey(_ card: Card, position: Int, anchor: String) -> Int {
        var hasher = Hasher()
        card.fields.fingerprint(into: &hasher)
        hasher.combine(settings.permalink(position: position, anchor: anchor))
        hasher.combine(templates.fingerprint)
        hasher.combine(settings.fingerprint)
        // The image file's size goes into the page (serve: an image replaced under its name).
        if case .asset(let path) = card.image { hasher.combine(settings.images.sizes.size(of: path)) }
        return hasher.finalize()
    }
}

extension Card.Fields {
    /// A hash of everything that can change how the card renders.
    func fingerprint(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(type.rawValue)
        hasher.combine(viewed)
        hasher.combine(created)
        hasher.combine(updated)
        hasher.combine(expiresAt)
        hasher.combine(categories.map(\.rawValue))
        for (key, value) in extras { hasher.combine(key); hasher.combine(value) }
        switch image {
        case .remote(let url): hasher.combine(1); hasher.combine(url)
        case .asset(let path): hasher.combine(2); hasher.combine(path)
        case nil: hasher.combine(0)
        }
        for text in [imageAlt, title, description, url, domain, subtitle, caption, displayPrice, mediaType, templateName] {
            hasher.combine(text)
        }
        hasher.combine(aspectRatio)
        hasher.combine(useWebView)
        hasher.combine(pinned)
        hasher.combine(dismissed)
        hasher.combine(dismissible)
        hasher.combine(rating)
        hasher.combine(reviews)
        hasher.combine(price)
        hasher.combine(itunesID)
        hasher.combine(universal)
        for (name, value) in styles { hasher.combine(name); hasher.combine(value) }
    }
}
