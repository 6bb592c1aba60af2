import CardFeedRender
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
/// Where one card is shown, or why it is not: `cardfeed explain`. Made from the build's own
/// steps (`SiteBuilder.explain`): the load, which keeps what became of the id's entries
/// (`CardEvent`), the rules, which keep the ids each rule matched, and the selection, whose
/// `hiddenReason` is the one decision of what a feed leaves out.
public struct CardExplanation: Sendable {
    public var id: String
    /// Whether any entry of the id was read (a card, a skipped entry or a removal).
    public var found: Bool { card != nil || !history.isEmpty }
    /// The card as the rules left it, when one of the id is there after loading.
    public var card: Card?
    /// Where that card was read: its file, line and column.
    public var place: Place?
    /// With `languages:`, which language's pages the card went to, and why (`LanguageTrees`).
    public var language: String?
    /// Each page that shows the card, in the order of the feeds (of each language's tree in turn).
    public var shown: [Shown] = []
    /// The card's own page (`cards/card-x.html`) when it is shown and the site has card pages,
    /// and its address with a base URL.
    public var ownPage: (file: String, url: String?)?
    /// Each placement of cardfeed.yml whose feed shows the card: whether the placement shows it
    /// too, and if not, why; with `languages:`, in each language's tree that shows the card.
    public var placements: [Placed] = []
    /// Why it is not shown, or what changed it, in the order the build decided.
    public var notes: [Note] = []
    /// What became of the id's entries as the files were read.
    public var history: [CardEvent] = []
    /// The warnings and errors about the card.
    public var diagnostics: [Diagnostic] = []
    /// Errors of the whole site: with any, a build writes nothing.
    public var siteErrors: [Diagnostic] = []
    /// A loaded id close to the one asked for, when none of it was read.
    public var suggestion: String?

    /// A place in a file (an entry of a card file, a rule of cardfeed.yml).
    public struct Place: Sendable, Equatable {
        public var file: String
        public var line: Int?
        public var column: Int?
        /// The entry's number in its file, from 1, for an entry of a card file.
        public var card: Int?

        public var description: String {
            var text = file
            if let line { text += ":\(line)" + (column.map { ":\($0)" } ?? "") }
            if let card { text += ", card \(card)" }
            return text
        }
    }

    /// One page that shows the card.
    public struct Shown: Sendable {
        /// The feed's name: "all", "news", "uncategorized"…
        public var feed: String
        /// Whether the page is the feed's front page, else one of its archive pages.
        public var front: Bool
        /// The page's file in the output, and the card's anchor on it.
        public var file: String
        public var anchor: String
        /// The card's place on the page, from 1, of `cards`.
        public var position: Int
        public var cards: Int
        /// The card's address, with a base URL.
        public var url: String?
        public var pinned: Bool
    }

    /// A placement whose feed shows the card.
    public struct Placed: Sendable {
        public var name: String
        /// With `languages:`, the language whose tree it is of (its files under `de/embed/`); nil
        /// for a site in one language.
        public var language: String?
        /// The placement's HTML fragment (`embed/NAME.html`, `de/embed/NAME.html`).
        public var file: String
        /// The card's place among the placement's cards, from 1, of `cards`; nil when it does not show it.
        public var position: Int?
        public var cards: Int
        /// Why the placement does not show the card.
        public var why: String?
    }

    /// A reason the card is not shown, or a change made to it.
    public struct Note: Sendable {
        public enum Kind: String, Sendable {
            case notRead = "not read"
            case skipped, duplicate, replaced, removed, hiddenByRule = "hidden by a rule", changedByRule = "changed by a rule"
            case control, dismissed, expired, future, test, inNoFeed = "in no feed"
        }
        public var kind: Kind
        /// Whether this keeps the card from being shown.
        public var hides: Bool
        public var message: String
        /// Where it was decided: a removal entry, a rule, the other entry of a duplicate id.
        public var place: Place?
    }
}

extension SiteBuilder {
    /// Runs the build's steps up to the selection (configure, load, rules, select), following
    /// `id`, and says where the card is shown or why not. Throws only when there is no site.
    public func explain(_ id: String) throws(BuildFailure) -> CardExplanation {
        var report = BuildReport()
        var state = BuildState(following: id)
        try run(Self.explainedSteps, &state, &report)
        let (configuration, loaded, ruled) = (state.configuration!, state.loaded!, state.ruled!)
        let selector = selector(configuration.config)
        let selections = selections(ruled.cards, configuration.config)

        var explanation = CardExplanation(id: id)
        explanation.history = loaded.history
        explanation.diagnostics = report.diagnostics.all.filter { $0.cardID == id }
        explanation.siteErrors = report.diagnostics.errors
        let zone = configuration.config.timeZone
        let places = Locator(loaded.history, ruled.cards.first { $0.id == id } ?? loaded.cards.first { $0.id == id })

        // What happened as the files were read.
        for event in loaded.history {
            switch event {
            case .read: break
            case .skipped(let reason, let skipped):
                // The warning as the build reported it, located.
                let why = report.diagnostics.all.first { $0.file == skipped.file && $0.cardIndex == skipped.cardIndex && $0.field == skipped.field && $0.message == skipped.message } ?? skipped
                explanation.notes.append(.init(kind: .skipped, hides: true, message: "skipped (\(reason.rawValue)): \(why.field.map { "field \(Diagnostic.quoted($0)): " } ?? "")\(why.message)", place: places[why]))
            case .duplicate(let kept, let dropped, let why):
                explanation.notes.append(.init(kind: .duplicate, hides: false, message: "two entries have this id: \(places[kept].description) is kept and \(places[dropped].description) dropped (\(why))", place: places[dropped]))
            case .replacedBySync(let earlier, let later):
                explanation.notes.append(.init(kind: .replaced, hides: false, message: "the entry of \(places[earlier].description) was replaced by that of a later sync, \(places[later].description) (a sync's card is the card as it is now)", place: places[later]))
            case .clearedByFullSync(let source, let sync):
                explanation.notes.append(.init(kind: .removed, hides: true, message: "the entry of \(places[source].description) was read from a Content Cards sync, and \(sync) is a full sync (full_sync: true), which replaces every card of earlier syncs", place: CardExplanation.Place(file: sync)))
            case .removed(let card, let removal):
                let what = card.map { "the entry of \(places[$0].description)" } ?? "the card (no entry of it was read before)"
                explanation.notes.append(.init(kind: .removed, hides: true, message: "removed by the entry {\"id\": \(Diagnostic.quoted(id)), \"r\": true} at \(places[removal, field: "r"].description); it deletes \(what)", place: places[removal, field: "r"]))
            case .removalIgnored(let removal, let why):
                explanation.notes.append(.init(kind: .removed, hides: false, message: "the removal entry at \(places[removal, field: "r"].description) removes nothing: \(why)", place: places[removal, field: "r"]))
            case .shownAgain(let source, let why):
                explanation.notes.append(.init(kind: .duplicate, hides: false, message: "the entry of \(places[source].description) \(why)", place: places[source]))
            }
        }

        // The rules, in order.
        let loadedCard = loaded.cards.first { $0.id == id }
        for match in ruled.matches where loadedCard != nil && match.ids.contains(id) {
            let rule = match.rule
            let place = CardExplanation.Place(file: rule.file, line: rule.line, column: rule.column)
            if rule.hide {
                explanation.notes.append(.init(kind: .hiddenByRule, hides: true, message: "hidden by the rule \(Diagnostic.quoted(rule.name)) (\(place.description)): it matches the card and says hide: true", place: place))
            } else {
                explanation.notes.append(.init(kind: .changedByRule, hides: false, message: "changed by the rule \(Diagnostic.quoted(rule.name)) (\(place.description)): \(rule.changes)", place: place))
            }
        }

        // A card the rules hid: where it was read.
        explanation.place = loadedCard.map { places[$0.source] }
        guard let card = ruled.cards.first(where: { $0.id == id }) else {
            explanation.card = loadedCard
            if !explanation.found {
                let ids = Set(loaded.cards.map(\.id))
                explanation.suggestion = Diagnostic.closest(to: id, among: ids)
            }
            return explanation
        }
        explanation.card = card
        if card.isTest {
            explanation.notes.append(.init(kind: .test, hides: false, message: "a test card (t: true), which is shown like any other card: no setting hides test cards"))
        }

        // What the selection decided.
        switch selector.hiddenReason(card) {
        case .control?:
            explanation.notes.append(.init(kind: .control, hides: true, message: "a control card (type control): Braze's SDKs never show one, nor does the site"))
        case .dismissed?:
            explanation.notes.append(.init(kind: .dismissed, hides: true, message: "dismissed: a card the reader dismissed is not shown, as in Braze's SDKs (its dismissed is at \(places.key("dismissed", of: card)))"))
        case .expired?:
            let expires = card.expiresAt ?? 0
            explanation.notes.append(.init(kind: .expired, hides: true, message: "expired at \(zone.iso(expires)), at or before the build's time, \(zone.iso(selector.now)) (--now); its expires_at is at \(places.key("expires_at", of: card))"))
        case .future?:
            explanation.notes.append(.init(kind: .future, hides: true, message: "dated \(zone.iso(card.created ?? 0)), after the build's time, \(zone.iso(selector.now)) (--now), and future: hide in cardfeed.yml keeps such cards until their date; its created is at \(places.key("created", of: card))"))
        case .removed?:
            explanation.notes.append(.init(kind: .removed, hides: true, message: "removed (r: true)"))
        case .invalid?, .unknownType?, .duplicate?, .replacedBySync?, .hiddenByRule?, .inNoFeed?, nil:
            break
        }
        guard selector.hiddenReason(card) == nil else { return explanation }
        explanation.language = configuration.config.languages.map { LanguageTrees($0).explanation(card) }
        // Each tree that shows it: one, or with `untagged_cards: every`, each language's.
        // Each with its language, with `languages:` (the trees are in their order).
        let tags = configuration.config.languages?.tags
        let showing = selections.indices.compactMap { index in
            selections[index].cards.firstIndex { $0.id == id }.map { (selection: selections[index], position: $0, language: tags?[index]) }
        }
        guard !showing.isEmpty else {
            // The site's own feeds (`feeds:`) and none shows every card: this one matched none.
            explanation.notes.append(.init(kind: .inNoFeed, hides: true, message: "in no feed: none of the feeds cardfeed.yml defines (feeds:) shows it, by its categories or its extras"))
            return explanation
        }
        for (selection, position, _) in showing { explanation.addPages(selection, position: position, card: card, config: configuration.config) }
        // Each tree has the site's placements, over its own cards.
        for (selection, position, language) in showing {
            explanation.placements += placements(of: card, at: position, configuration.config.placements ?? [], selection, ruled, language: language)
        }
        return explanation
    }
}

extension CardExplanation {
    /// The pages of one language's tree that show the card at display position `position`.
    mutating func addPages(_ selection: Selection, position: Int, card: Card, config: SiteConfig) {
        let anchor = selection.cards.anchor(at: position)
        if config.cardPages, ownPage == nil {
            let file = PagePaths.cardPage(anchor: anchor, tree: selection.tree)
            ownPage = (file, config.baseURL.map { $0 + PagePaths.served(file) })
        }
        for feed in selection.feeds {
            guard let index = feed.cards.firstIndex(of: position) else { continue }
            for (number, page) in feed.pages.enumerated() {
                guard let place = page.cards.firstIndex(of: index) else { continue }
                let url = config.baseURL.map { $0 + PagePaths.served(page.path) + "#" + anchor }
                shown.append(.init(
                    feed: feed.feed.slug, front: number == 0, file: page.path, anchor: anchor, position: place + 1,
                    cards: page.cards.count, url: url, pinned: card.pinned))
            }
        }
    }
}

extension SiteBuilder {
    /// The placements whose feed shows the card at `position`, with the card's place in each, or
    /// why it has none: a rule keeps it out, the placement's extras filter leaves it out, or
    /// newer (or pinned) cards of the feed fill the placement's limit.
    func placements(
        of card: Card, at position: Int, _ placements: [Placement], _ selection: Selection, _ ruled: RuleEngine.RuledCards, language: String?
    ) -> [CardExplanation.Placed] {
        let placed = PlacementSelector.select(placements, in: selection, keptOut: ruled.keptOutOfPlacements)
        return placed.compactMap { placed in
            let placement = placed.placement
            guard let feed = selection.feeds.first(where: { $0.feed.slug == placement.feed }), feed.cards.contains(position) else { return nil }
            let file = PlacementFiles.paths(of: placement.name, tree: selection.tree)[0]
            var entry = CardExplanation.Placed(name: placement.name, language: language, file: file, cards: placed.cards.count)
            if let index = placed.cards.firstIndex(of: position) {
                entry.position = index + 1
            } else if let rule = ruled.matches.first(where: { $0.rule.keepOutOf.contains(placement.name) && $0.ids.contains(card.id) })?.rule {
                entry.why = "the rule \(Diagnostic.quoted(rule.name)) (\(rule.location)) keeps it out (keep_out_of)"
            } else if !FeedMatch(extras: placement.extras).matches(extras: card.extras) {
                let wanted = placement.extras.map { "\($0.key): \($0.values.sorted().joined(separator: " or "))" }.joined(separator: ", ")
                entry.why = "its extras do not match the placement's extras (\(wanted))"
            } else {
                entry.why = "the \(placement.feed) feed's \(placement.limit == 1 ? "first card is" : "first \(placement.limit) cards are") shown there (limit: \(placement.limit)), and this card comes later"
            }
            return entry
        }
    }
}

/// Lines and columns of the entries the explanation names, found as the build's messages find
/// theirs (`Diagnostics.locateCards`): the entry's `{`, or the key of a field in it.
private struct Locator {
    private var places: [String: CardExplanation.Place] = [:]
    /// The key style of the card (its `created` may be `ca`).
    private let card: Card?

    init(_ history: [CardEvent], _ card: Card?) {
        self.card = card
        var wanted: [(key: String, diagnostic: Diagnostic)] = []
        func want(_ source: CardSource, field: String? = nil) {
            guard source.offset != nil else { return }
            var diagnostic = Diagnostic(.warning, file: source.file, cardIndex: source.index, field: field, message: "")
            diagnostic.cardOffset = source.offset
            wanted.append((Self.key(source, field), diagnostic))
        }
        for event in history {
            switch event {
            case .read(let source), .replacedBySync(_, let source), .clearedByFullSync(let source, _), .shownAgain(let source, _): want(source)
            case .duplicate(let kept, let dropped, _): want(kept); want(dropped)
            case .removed(let source, let removal): source.map { want($0) }; want(removal, field: "r")
            case .removalIgnored(let removal, _): want(removal, field: "r")
            case .skipped: break
            }
        }
        if let card {
            want(card.source)
            for field in ["dismissed", "expires_at", "created"] { want(card.source, field: field) }
        }
        var diagnostics = Diagnostics(wanted.map(\.diagnostic))
        diagnostics.locateCards()
        for (index, item) in wanted.enumerated() {
            let located = diagnostics.all[index]
            places[item.key] = CardExplanation.Place(file: located.file, line: located.line, column: located.column, card: located.cardIndex.map { $0 + 1 })
        }
    }

    private static func key(_ source: CardSource, _ field: String?) -> String { "\(source.file)\u{0}\(source.index)\u{0}\(source.offset ?? -1)\u{0}\(field ?? "")" }

    subscript(source: CardSource, field field: String? = nil) -> CardExplanation.Place {
        places[Self.key(source, field)] ?? places[Self.key(source, nil)] ?? CardExplanation.Place(file: source.file, card: source.index + 1)
    }

    /// A warning's own place.
    subscript(diagnostic: Diagnostic) -> CardExplanation.Place {
        CardExplanation.Place(file: diagnostic.file, line: diagnostic.line, column: diagnostic.column, card: diagnostic.cardIndex.map { $0 + 1 })
    }

    /// `site/cards.json:4:5`: where a field of the card is (its key), or the card.
    func key(_ field: String, of card: Card) -> String {
        var place = self[card.source, field: field]
        place.card = nil
        return place.description
    }
}
