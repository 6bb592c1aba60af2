import Foundation

/// A fixed-size array that concurrent workers fill, each at its own index.
package final class ConcurrentResults<Value>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value?>
    private let count: Int

    package init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: nil, count: count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Safe without a lock: every index is written by exactly one worker, and the values are
    /// read only after all of them have finished.
    package func set(_ index: Int, _ value: Value) {
        precondition(index >= 0 && index < count)
        storage[index] = value
    }

    package var values: [Value] { (0..<count).map { storage[$0]! } }
}
