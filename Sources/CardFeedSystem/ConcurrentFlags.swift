import Synchronization

/// A fixed number of flags that concurrent workers set, any of them any flag: which of the build
/// cache's records a build took, marked as both cores take them.
///
/// Each flag is an atomic of its own, so two workers may set the same one; they are read once
/// the workers have finished (their thread's end orders the reads after the writes).
package final class ConcurrentFlags: @unchecked Sendable {
    // Unsafe only in that the compiler cannot see the pointer is never shared for writing but
    // through the atomics it points at.
    private let flags: UnsafeMutablePointer<Atomic<Bool>>
    package let count: Int

    package init(count: Int) {
        precondition(count >= 0)
        self.count = count
        flags = .allocate(capacity: max(count, 1))
        for index in 0..<count { (flags + index).initialize(to: Atomic(false)) }
    }

    deinit {
        flags.deinitialize(count: count)
        flags.deallocate()
    }

    package func set(_ index: Int) {
        precondition(index >= 0 && index < count)
        flags[index].store(true, ordering: .relaxed)
    }

    package subscript(index: Int) -> Bool {
        precondition(index >= 0 && index < count)
        return flags[index].load(ordering: .relaxed)
    }
}
