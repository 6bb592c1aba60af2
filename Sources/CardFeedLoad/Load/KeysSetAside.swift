import CardFeedModel

/// The keys a file's cards gave in both key styles (`"tt"` and `"title"`) whose values were set
/// aside, and the cards that gave them: one warning a file names them all, where a warning a
/// card would repeat the same words for every card an export wrote so.
struct KeysSetAside {
    private var keys: [String] = []
    private var seen = Set<String>()
    private var cards: [Diagnostic] = []

    mutating func add(_ note: Diagnostic) {
        for key in note.keysSetAside ?? [] where seen.insert(key).inserted { keys.append(key) }
        cards.append(note)
    }

    /// The file's one warning, at its first such card; nil when no card gave both styles.
    /// `sync`: whether the file is a Content Cards sync, whose short keys are read.
    mutating func warning(sync: Bool) -> Diagnostic? {
        defer { self = KeysSetAside() }
        guard let first = cards.first else { return nil }
        let named = cards.prefix(3).map { Diagnostic.card($0.cardIndex ?? 0, $0.cardID) }.joined(separator: ", ")
        let count = cards.count == 1 ? named : "\(cards.count) cards (\(named)\(cards.count > 3 ? ", …" : ""))"
        let rule = sync
            ? "a Content Cards sync is read by its short keys, as Braze's Web SDK reads it"
            : "a file that is no Content Cards sync is read by its long keys, as Braze's News Feed is"
        var diagnostic = Diagnostic(
            .warning, file: first.file,
            message: "\(count) \(cards.count == 1 ? "gives" : "give") a field in both key styles; \(rule), so \(keys.map { Diagnostic.quoted($0) }.joined(separator: ", ")) \(keys.count == 1 ? "is" : "are") ignored")
        diagnostic.cardOffset = first.cardOffset
        return diagnostic
    }
}
