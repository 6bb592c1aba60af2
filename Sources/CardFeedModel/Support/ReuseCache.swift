import Synchronization

/// Values one build made that the next may reuse, by a key that hashes everything a value
/// depends on. `cardfeed serve` owns one for each step that can skip work (decoded cards,
/// rendered cards) and hands it to that step; `cardfeed build` has none.
///
/// A value the next build does not ask for is forgotten when it ends, so the cache holds what
/// one build used, not everything ever made. Safe to use from both cores at once.
public final class ReuseCache<Value: Sendable>: Sendable {
    private let state = Mutex(State())

    private struct State {
        var values: [Int: Value] = [:]
        var used: [Int: Value] = [:]
        var madeByLastBuild = 0
    }

    /// Values the build under way has made so far: counted apart from `state`, which a cache
    /// on disk takes only as a build begins and ends, so that both cores storing values wait
    /// for no lock.
    private let stored = Atomic<Int>(0)

    /// Values made (not reused) by the last build, for the log and the tests.
    public var madeByLastBuild: Int { state.withLock { $0.madeByLastBuild } }

    /// Where a value that no build of this process made is looked for: a cache on disk
    /// (`BuildCache`), read a value at a time, as the build asks. With `keep`, that cache marks
    /// what the build takes from it, for the next build (so the values used are not kept here).
    private let fallback: (@Sendable (Int) -> Value?)?
    /// Whether `fallback` has a value under each of some keys, without reading them (and, as
    /// for a value read, marking it taken).
    private let fallbackHas: (@Sendable ([Int]) -> [Bool])?
    /// Where the values this build makes go instead of memory, a batch at a time: the same
    /// cache on disk, which writes them as the build goes. Then no value used is kept here (see
    /// `fallback`), and nothing here is ever looked at.
    private let keep: (@Sendable ([(key: Int, value: Value)]) -> Void)?

    public init() {
        fallback = nil
        fallbackHas = nil
        keep = nil
    }

    package init(
        fallback: @escaping @Sendable (Int) -> Value?, has: (@Sendable ([Int]) -> [Bool])? = nil, keep: (@Sendable ([(key: Int, value: Value)]) -> Void)? = nil
    ) {
        self.fallback = fallback
        self.fallbackHas = has
        self.keep = keep
    }

    /// The value stored under `key` by the last build, kept for the next; in memory, also one
    /// this build stored in an earlier batch (see `store(contentsOf:)`).
    package func value(for key: Int) -> Value? {
        if keep != nil { return fallback?(key) }
        let found = state.withLock { state -> Value? in
            guard let value = state.used[key] ?? state.values[key] else { return nil }
            state.used[key] = value
            return value
        }
        guard found == nil, let fallback, let value = fallback(key) else { return found }
        state.withLock { $0.used[key] = value }
        return value
    }

    /// Keeps the values stored under `keys` for the next build, as `value(for:)` does, but
    /// without reading them where it can (from the cache on disk, with `keep`): for a build that
    /// needs not the values themselves. By key, whether there was such a value.
    package func keepUnread(_ keys: [Int]) -> [Bool] {
        // Only a cache on disk keeps a value by its key alone; in memory, keeping it is reading it.
        guard let fallbackHas, keep != nil else { return keys.map { value(for: $0) != nil } }
        return fallbackHas(keys)
    }

    /// Keeps `made`, values this build made, for the next: a batch at a time, so that a cache
    /// on disk takes its lock once a batch, not once a value (both cores store at once).
    package func store(contentsOf made: [(key: Int, value: Value)]) {
        guard !made.isEmpty else { return }
        stored.add(made.count, ordering: .relaxed)
        if let keep { return keep(made) }
        state.withLock { state in
            for (key, value) in made { state.used[key] = value }
        }
    }

    /// Begins a build: what a build that failed began to use is forgotten (the last good build's
    /// values stay).
    package func beginBuild() {
        state.withLock { $0.used = [:] }
        stored.store(0, ordering: .relaxed)
    }

    /// How many values the build under way has made so far rather than taken.
    package var madeThisBuild: Int { stored.load(ordering: .relaxed) }

    /// Ends a build: what it did not use is forgotten.
    package func endBuild() {
        state.withLock { state in
            state.values = state.used
            state.used = [:]
            state.madeByLastBuild = stored.load(ordering: .relaxed)
        }
        stored.store(0, ordering: .relaxed)
    }
}
