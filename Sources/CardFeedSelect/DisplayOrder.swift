import CardFeedModel
import CardFeedLoad
/// The order cards are shown in, one rule for every feed and every output: pinned cards first,
/// then newest first (`Card.sortTime`: `updated`, which is `created` for a card without one),
/// then the order in which the cards were read: files in path order, then position in the file.
/// The last keeps a Content Cards sync's own order for cards of the same time, as Braze's SDKs
/// do (their sorts are stable), and is deterministic because card files are read in sorted
/// path order.
struct DisplayOrder {
    private let pinned: [Bool]
    private let times: [Int64]
    private let readOrder: [Int]

    /// Reads each card's keys once, rather than once per comparison. (Closures, not key paths:
    /// a key path to another module's property is followed at run time, card by card.)
    init(_ cards: [Card]) {
        pinned = cards.map { $0.pinned }
        times = cards.map { $0.sortTime }
        readOrder = cards.map { $0.source.order }
    }

    /// Whether the card at index `a` of the cards given is shown before the one at `b`.
    func showsBefore(_ a: Int, _ b: Int) -> Bool {
        if pinned[a] != pinned[b] { return pinned[a] }
        return isNewer(a, b)
    }

    /// Whether the card at index `a` comes before the one at `b` pins aside: the order of a
    /// feed's archive pages, where a pinned card stands at its date (see `Paginator`).
    func isNewer(_ a: Int, _ b: Int) -> Bool {
        if times[a] != times[b] { return times[a] > times[b] }
        return readOrder[a] < readOrder[b]
    }
}
