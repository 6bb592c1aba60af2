import Foundation

/// One of the site's feeds: all cards, one category, or the cards without a category.
public enum Feed: Sendable, Hashable, CaseIterable {
    case all
    case category(FeedCategory)
    case uncategorized

    public static var allCases: [Feed] { [.all] + FeedCategory.allCases.map(Feed.category) + [.uncategorized] }

    /// The feed's folder in the output ("" for the all feed, which is the site's front page).
    public var folder: String {
        switch self {
        case .all: ""
        case .category(let category): category.rawValue
        case .uncategorized: "uncategorized"
        }
    }

    /// The name used in templates and CSS classes.
    public var slug: String { self == .all ? "all" : folder }

    public var title: String {
        switch self {
        case .all: "All"
        case .category(let category): category.title
        case .uncategorized: "Uncategorized"
        }
    }

    func contains(_ card: Card) -> Bool {
        switch self {
        case .all: true
        case .category(let category): card.categories.contains(category)
        case .uncategorized: card.categories.isEmpty
        }
    }
}
