import Foundation

/// A fixed-size array that concurrent workers fill, each at its own index.
///
/// Inlinable, so that it is specialised for each `Element` where it is used: the loader and the
/// renderer are other modules, and an unspecialised `set` looks up `Element`'s metadata per call.
/// (Cross-module optimisation passes over `package` code; `@inlinable` members of a
/// `@usableFromInline` type are the way to offer it.)
@usableFromInline
package final class ConcurrentResults<Element>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element?>
    @usableFromInline let count: Int

    @inlinable
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
    @inlinable
    package func set(_ index: Int, _ value: Element) {
        precondition(index >= 0 && index < count)
        storage[index] = value
    }

    @inlinable
    package var values: [Element] { (0..<count).map { storage[$0]! } }
}
