import Foundation

/// Values one build made that the next may reuse, by a key that hashes everything a value
/// depends on. `cardfeed serve` owns one for each step that can skip work (decoded cards,
/// rendered cards) and hands it to that step; `cardfeed build` has none.
///
/// A value the next build does not ask for is forgotten when it ends, so the cache holds what
/// one build used, not everything ever made. Safe to use from both cores at once.
public final class ReuseCache<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Value] = [:]
    private var used: [Int: Value] = [:]
    private var stored = 0
    /// Values made (not reused) by the last build, for the log and the tests.
    public private(set) var madeByLastBuild = 0

    public init() {}

    /// The value stored under `key` by the last build (or this one), kept for the next.
    package func value(for key: Int) -> Value? {
        lock.withLock {
            guard let value = used[key] ?? values[key] else { return nil }
            used[key] = value
            return value
        }
    }

    package func store(_ value: Value, for key: Int) {
        lock.withLock {
            used[key] = value
            stored += 1
        }
    }

    /// Begins a build: what a build that failed began to use is forgotten (the last good build's
    /// values stay).
    package func beginBuild() {
        lock.withLock {
            used = [:]
            stored = 0
        }
    }

    /// Ends a build: what it did not use is forgotten.
    package func endBuild() {
        lock.withLock {
            values = used
            used = [:]
            madeByLastBuild = stored
            stored = 0
        }
    }
}
