import Foundation

/// What `cardfeed serve` keeps from one build to the next, so that a rebuild after a small
/// edit renders only the cards that changed and writes only the files that changed, in place.
/// (`cardfeed build` has none: it renders every card, and compares each file with the output's.)
public final class IncrementalState: @unchecked Sendable {
    private let lock = NSLock()
    /// Rendered cards of the last build, by `RenderKey`.
    private var cards: [Int: (html: String, description: String?)] = [:]
    private var nextCards: [Int: (html: String, description: String?)] = [:]
    /// Cards decoded by the last build, by a hash of their file, bytes and decoder settings.
    private var entries: [Int: (DecodedEntry, [Diagnostic])] = [:]
    private var nextEntries: [Int: (DecodedEntry, [Diagnostic])] = [:]
    /// The output folder, updated in place, file by file.
    private var preview: PreviewOutput?
    /// Counts for the last build, for the log and for tests.
    public private(set) var cardsRendered = 0
    public private(set) var filesWritten = 0

    public init() {}

    func cachedCard(_ key: Int) -> (html: String, description: String?)? {
        lock.lock()
        defer { lock.unlock() }
        guard let card = cards[key] else { return nil }
        nextCards[key] = card
        return card
    }

    func storeCard(_ key: Int, _ card: (html: String, description: String?)) {
        lock.lock()
        defer { lock.unlock() }
        nextCards[key] = card
        cardsRendered += 1
    }

    /// The output at `folder`, which keeps what it wrote from one build to the next.
    func output(_ folder: URL) -> PreviewOutput {
        lock.withLock {
            if let preview, preview.folder == folder { return preview }
            let output = PreviewOutput(folder: folder)
            preview = output
            return output
        }
    }

    func cachedEntry(_ key: Int) -> (DecodedEntry, [Diagnostic])? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key] else { return nil }
        nextEntries[key] = entry
        return entry
    }

    func storeEntry(_ key: Int, _ entry: (DecodedEntry, [Diagnostic])) {
        lock.lock()
        defer { lock.unlock() }
        nextEntries[key] = entry
    }

    /// Starts a build: what the previous one did not use is forgotten when it ends.
    func beginBuild() {
        lock.lock()
        defer { lock.unlock() }
        nextCards = [:]
        nextEntries = [:]
        cardsRendered = 0
        filesWritten = 0
    }

    func endBuild(filesWritten: Int) {
        lock.lock()
        defer { lock.unlock() }
        cards = nextCards
        nextCards = [:]
        entries = nextEntries
        nextEntries = [:]
        self.filesWritten = filesWritten
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
