import Dispatch
import Foundation
import Synchronization

/// A value worked out on a thread of its own from the moment it is made, for a step that needs it
/// later: while one core reads the cards, the other reads the build cache's index. The thread is
/// a `Thread` (a pthread), not a dispatch queue's: see `Parallel` for why the pool is avoided.
package final class Background<Result: Sendable>: @unchecked Sendable {
    // Written once, by the worker, before `ready` (releasing) and `finished`; read only after
    // either says so, so that every reader sees it whole.
    private var stored: Result?
    private let ready = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    package init(_ work: @escaping @Sendable () -> Result) {
        Thread { [self] in
            stored = work()
            ready.store(true, ordering: .releasing)
            finished.signal()
        }.start()
    }

    /// A value already worked out.
    package init(finished value: Result) {
        stored = value
        ready.store(true, ordering: .releasing)
    }

    /// The value, once worked out: the first to ask may wait for it.
    package var value: Result {
        if !ready.load(ordering: .acquiring) {
            finished.wait()
            // For whoever else waits.
            finished.signal()
        }
        return stored!
    }
}
