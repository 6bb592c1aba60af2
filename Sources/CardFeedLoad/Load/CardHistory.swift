import CardFeedModel
/// What became of the entries of one card id as the card files were read and merged, in that
/// order: kept by `CardMerger` for the id `cardfeed explain` asks about (`CardLoader.following`),
/// so that it can say why a card is not there in the words the build itself decided with.
public enum CardEvent: Sendable {
    /// An entry of the id was read as a card.
    case read(CardSource)
    /// An entry of the id was not a card; the warning that says why.
    case skipped(SkipReason, Diagnostic)
    /// Two entries with the id: the one kept, the one dropped, and why (the warning's words).
    case duplicate(kept: CardSource, dropped: CardSource, why: String)
    /// A later sync sent the card again, and its entry replaced the earlier one.
    case replacedBySync(earlier: CardSource, later: CardSource)
    /// A full sync (`full_sync: true`, the file named) replaced every card of earlier syncs.
    case clearedByFullSync(CardSource, sync: String)
    /// A removal entry (`{"id": X, "r": true}`) deleted the card (nil: none was read before it).
    case removed(CardSource?, by: CardSource)
    /// A removal entry that removed nothing, and why (the warning's words).
    case removalIgnored(by: CardSource, why: String)
    /// The entry of a file that is not a sync, which a sync's card had taken the place of, is
    /// shown again since syncs no longer send the id (the warning's words).
    case shownAgain(CardSource, why: String)
}
