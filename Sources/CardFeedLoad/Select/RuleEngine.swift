import CardFeedModel
/// Applies the rules of cardfeed.yml to the loaded cards, in order, before selection.
package struct RuleEngine {
    let rules: [CardRule]
    /// Checks the links and images that rules set, as for values read from card files.
    let decoder: CardDecoder

    package init(rules: [CardRule], decoder: CardDecoder) {
        self.rules = rules
        self.decoder = decoder
    }

    package struct RuledCards {
        package var cards: [Card]
        package var hidden = 0
        /// For each rule, the ids of the cards it changed.
        package var matches: [(rule: CardRule, ids: [String])] = []
        package var diagnostics: [Diagnostic] = []
    }

    /// Card ids a grouped warning names before "…".
    static let idsShown = 5

    /// Applies the rules in order. A problem with what a rule sets is one warning for the rule,
    /// with the number of cards and the first ids, not one per card. `cardsComplete` false (a
    /// card file could not be read) leaves out "matches no card", which would then be wrong.
    package func apply(to cards: [Card], cardsComplete: Bool = true) -> RuledCards {
        guard !rules.isEmpty else { return RuledCards(cards: cards) }
        var outcome = RuledCards(cards: [])
        var visible = Array(repeating: true, count: cards.count)
        var cards = cards
        for rule in rules {
            var ids: [String] = []
            var problems: [(field: String, message: String, ids: [String])] = []
            for index in cards.indices where visible[index] && rule.matches(cards[index]) {
                ids.append(cards[index].id)
                if rule.hide {
                    visible[index] = false
                    continue
                }
                for (field, message) in apply(rule, to: &cards[index]) {
                    if let known = problems.firstIndex(where: { $0.field == field && $0.message == message }) {
                        problems[known].ids.append(cards[index].id)
                    } else {
                        problems.append((field, message, [cards[index].id]))
                    }
                }
            }
            for problem in problems {
                let shown = problem.ids.prefix(Self.idsShown).map(Diagnostic.quoted).joined(separator: ", ") + (problem.ids.count > Self.idsShown ? ", …" : "")
                let cards = problem.ids.count == 1 ? "1 card" : "\(problem.ids.count) cards"
                outcome.diagnostics.append(warning(rule, problem.field, "\(problem.message) (for \(cards): \(shown))"))
            }
            if ids.isEmpty && cardsComplete {
                outcome.diagnostics.append(Diagnostic(.warning, file: rule.file, line: rule.line, column: rule.column, field: rule.name, message: "the rule matches no card"))
            }
            outcome.matches.append((rule, ids))
        }
        outcome.cards = cards.indices.filter { visible[$0] }.map { cards[$0] }
        outcome.hidden = visible.filter { !$0 }.count
        return outcome
    }

    /// Changes the card; returns the problems with the values set, by field.
    private func apply(_ rule: CardRule, to card: inout Card) -> [(field: String, message: String)] {
        var problems: [(field: String, message: String)] = []
        if let pin = rule.pin { card.pinned = pin }
        if let categories = rule.moveTo { card.categories = Array(Set(categories)).sorted() }
        for (field, value) in rule.set {
            switch (field, value) {
            case ("title", .text(let text)): card.title = text
            case ("description", .text(let text)): card.description = text
            case ("domain", .text(let text)): card.domain = text
            case ("image_alt", .text(let text)): card.imageAlt = text
            case ("subtitle", .text(let text)): card.subtitle = text
            case ("caption", .text(let text)): card.caption = text
            case ("display_price", .text(let text)): card.displayPrice = text
            case ("url", .text(let text)):
                let (link, problem) = decoder.checkLink(text)
                card.url = link
                if let problem { problems.append((field, problem)) }
            case ("image", .text(let text)):
                let (image, problem) = decoder.checkImage(text)
                card.image = image
                if let problem { problems.append((field, problem)) }
            case ("viewed", .flag(let flag)): card.viewed = flag
            case ("pinned", .flag(let flag)): card.pinned = flag
            case ("dismissible", .flag(let flag)): card.dismissible = flag
            case ("use_webview", .flag(let flag)): card.useWebView = flag
            case ("expires_at", .number(let number)): card.expiresAt = number < 0 ? nil : Int64(number)
            case ("expires_at", .time(let time)): card.expiresAt = time.moment(in: decoder.timeZone)
            case ("aspect_ratio", .number(let number)): card.aspectRatio = number > 0 ? number : nil
            case ("descriptions", .text(let text)): card.descriptionFormat = DescriptionFormat(rawValue: text) ?? card.descriptionFormat
            default: break  // the loader accepts only the fields and kinds above
            }
        }
        return problems
    }

    private func warning(_ rule: CardRule, _ field: String, _ message: String) -> Diagnostic {
        Diagnostic(.warning, file: rule.file, line: rule.line, column: rule.column, field: "\(rule.name): set.\(field)", message: message)
    }
}
