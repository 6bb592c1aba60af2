import CardFeedModel
import CardFeedLoad
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
        /// By placement name, the ids of the cards a rule's `keep_out_of` leaves out of it.
        package var keptOutOfPlacements: [String: Set<String>] = [:]
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
                for placement in rule.keepOutOf { outcome.keptOutOfPlacements[placement, default: []].insert(cards[index].id) }
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
        for (field, assignment) in rule.set {
            let key = field.declaration.key
            switch assignment {
            case .text(let text): card[field] = .text(text)
            case .link(let text):
                let (link, problem) = decoder.checkLink(text)
                card[field] = .text(link)
                if let problem { problems.append((key, problem)) }
            case .image(let text):
                let (image, problem) = decoder.checkImage(text)
                card[field] = .image(image)
                if let problem { problems.append((key, problem)) }
            case .flag(let flag): card[field] = .flag(flag)
            case .number(let number): card[field] = .number(number)
            case .integer(let number): card[field] = .integer(number)
            case .seconds(let seconds): card[field] = .integer(seconds)
            case .time(let time): card[field] = .integer(time.moment(in: decoder.timeZone))
            case .format(let format): card[field] = .format(format)
            }
        }
        return problems
    }

    private func warning(_ rule: CardRule, _ field: String, _ message: String) -> Diagnostic {
        Diagnostic(.warning, file: rule.file, line: rule.line, column: rule.column, field: "\(rule.name): set.\(field)", message: message)
    }
}
