/// How far a long step of a build has come: what `cardfeed build` shows on a terminal while it
/// loads and renders tens of thousands of cards and writes their pages.
public struct StepProgress: Sendable, Equatable {
    /// The step's number, of `steps`, and its title, as in the line the step ends with.
    public var step: Int
    public var steps: Int
    public var title: String
    /// Things done so far (entries read, cards rendered, files written), of `total` when known.
    public var done: Int
    public var total: Int?
    /// What `done` counts, in the plural ("entries", "cards", "files").
    public var unit: String
    /// The share of the step's work done, from 0 to 1.
    public var fraction: Double
    /// Seconds since the step began.
    public var seconds: Double
    // Made by the build alone (the memberwise init); observers read it.
}

/// Told how a build's steps progress. Called from the build's threads, one call at a time for a
/// step, never while anything else of the build is logged: `stepEnded` comes before the line
/// the step ends with.
public protocol BuildProgressObserver: Sendable {
    func progress(_ progress: StepProgress)
    func stepEnded()
}
