import Foundation
import Synchronization

/// `DispatchQueue.concurrentPerform`, but where `/proc` is missing (a chroot or container
/// without it). libdispatch's thread pool on Linux has a monitor that, once a second, finds the
/// pool's queue holding work and reads `/proc/<thread>/stat` for each of its workers; when it
/// cannot, it stops the process ("workq: registered worker exited prematurely", which the shell
/// shows as "Illegal instruction"). `concurrentPerform` leaves work queued there whenever the
/// workers are busy, so without `/proc` the iterations run on threads of our own instead, as
/// many as there are cores, each taking the next index, as `concurrentPerform` runs them.
package enum Parallel {
    /// Whether `/proc` is there to read (decided once; it does not come or go during a run).
    package static let procIsMounted = access("/proc/self/stat", R_OK) == 0

    @usableFromInline
    package static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        if procIsMounted || iterations <= 1 {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
            return
        }
        // Every thread is joined, and the loop that holds the body released, before `perform`
        // returns: the body does not outlive the call.
        withoutActuallyEscaping(body) { body in
            let loop = Loop(body, iterations: iterations)
            var threads: [pthread_t] = []
            for _ in 0..<min(iterations, max(1, ProcessInfo.processInfo.activeProcessorCount)) {
                var thread = pthread_t()
                let context = Unmanaged.passRetained(loop).toOpaque()
                let started = pthread_create(&thread, nil, { context in
                    Unmanaged<Loop>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
                if started == 0 { threads.append(thread) } else { Unmanaged<Loop>.fromOpaque(context).release() }
            }
            if threads.isEmpty { loop.run() }
            for thread in threads { pthread_join(thread, nil) }
        }
    }

    /// `body` over `0..<count` cut into ranges of `chunk`, each range on whichever core is free.
    @usableFromInline
    package static func perform(count: Int, chunk: Int, _ body: @Sendable (Range<Int>) -> Void) {
        perform(iterations: (count + chunk - 1) / chunk) { index in body(index * chunk..<min(count, (index + 1) * chunk)) }
    }

    /// `transform` of each index of `0..<count`, in order, worked out a chunk at a time on
    /// whichever core is free. (Inlinable, as `ConcurrentResults` is, to be specialised for
    /// each `Element`.)
    @inlinable
    package static func map<Element>(count: Int, chunk: Int, _ transform: @Sendable (Int) -> Element) -> [Element] {
        let results = ConcurrentResults<Element>(count: count)
        perform(count: count, chunk: chunk) { range in
            for index in range { results.set(index, transform(index)) }
        }
        return results.values
    }

    /// `transform` of each range of `0..<count` cut into ranges of `chunk`, in order, each range
    /// on whichever core is free.
    @inlinable
    package static func mapRanges<Element>(count: Int, chunk: Int, _ transform: @Sendable (Range<Int>) -> Element) -> [Element] {
        let results = ConcurrentResults<Element>(count: (count + chunk - 1) / chunk)
        perform(count: count, chunk: chunk) { range in results.set(range.lowerBound / chunk, transform(range)) }
        return results.values
    }

    /// The elements that `include` takes, in their order, asked a chunk at a time on whichever
    /// core is free.
    package static func filter<Element: Sendable>(_ elements: [Element], chunk: Int = 4096, _ include: @Sendable (Element) -> Bool) -> [Element] {
        mapRanges(count: elements.count, chunk: chunk) { elements[$0].filter(include) }.flatMap { $0 }
    }

    /// The iterations, each taken once by whichever thread asks first.
    private final class Loop: Sendable {
        let body: @Sendable (Int) -> Void
        let iterations: Int
        let next = Atomic(0)

        init(_ body: @escaping @Sendable (Int) -> Void, iterations: Int) {
            self.body = body
            self.iterations = iterations
        }

        func run() {
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < iterations { body(index) }
        }
    }
}
