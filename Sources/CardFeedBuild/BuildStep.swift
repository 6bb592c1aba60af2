import CardFeedLoad
import CardFeedSelect
import CardFeedSystem
import CardFeedWrite

/// One step of a build (`SiteBuilder.steps`): its name, the line it prints when it ends, when it
/// runs and what it does. A step reads what the steps before it made and adds its own to the
/// `BuildState`; a new step is one entry of the list.
struct BuildStep: Sendable {
    enum Name: Sendable, Equatable {
        case configure, load, rules, checkpoint, select, render, index, write, keep
    }

    let name: Name
    /// The step's line ("[2/4] Select cards: ..."), printed when it ends, and counted in the
    /// lines' numbers; nil for a step that prints none.
    let title: (@Sendable (SiteBuilder) -> String)?
    /// Whether the build runs the step, given whether it has search (its configuration read).
    let runs: @Sendable (SiteBuilder, _ search: Bool) -> Bool
    let body: @Sendable (SiteBuilder, inout BuildState, inout BuildReport) throws(BuildFailure) -> Void

    init(
        _ name: Name, title: (@Sendable (SiteBuilder) -> String)? = nil, runs: @escaping @Sendable (SiteBuilder, _ search: Bool) -> Bool = { _, _ in true },
        _ body: @escaping @Sendable (SiteBuilder, inout BuildState, inout BuildReport) throws(BuildFailure) -> Void
    ) {
        self.name = name
        self.title = title
        self.runs = runs
        self.body = body
    }
}

/// What a build's steps have made so far, each step's value set by that step: a step reads only
/// those of the steps before it.
struct BuildState {
    /// With `explain`, the card id whose entries the load follows.
    var following: String?
    var configuration: SiteBuilder.Configuration?
    var loaded: LoadedCards?
    var ruled: RuleEngine.RuledCards?
    /// Into a folder, its transaction, opened on a thread of its own from the rules step on.
    var openingOutput: Background<Result<OutputTransaction, SiteWriter.Refusal>>?
    var setup: SiteBuilder.Setup?
    var selections: [Selection] = []
    var output: (any OutputTarget)?
    var site: SiteBuilder.RenderedSite?
}
