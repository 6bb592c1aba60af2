import Testing
@testable import CardFeedSystem

/// The build cache marks the records a build takes with these, from both cores at once, often
/// the same record twice (two entries of a file with the same bytes): every flag set by any
/// worker reads as set once they finish, and no other.
struct ConcurrentFlagsTests {
    @Test func flagsSetFromEveryWorkerReadAsSetAndNoOthers() {
        let flags = ConcurrentFlags(count: 1_000)
        // Each of 16 workers sets every third flag of the whole range from its own start: all
        // workers touch the same flags, none sets one that is not a multiple of three.
        Parallel.perform(iterations: 16) { worker in
            for index in stride(from: (worker * 3) % 30, to: flags.count, by: 3) { flags.set(index) }
        }
        let set = (0..<flags.count).filter { flags[$0] }
        #expect(set == Array(stride(from: 0, to: 1_000, by: 3)))
    }

    @Test func noFlagIsSetAtFirst() {
        let flags = ConcurrentFlags(count: 100)
        #expect((0..<100).allSatisfy { !flags[$0] })
        #expect(ConcurrentFlags(count: 0).count == 0)
    }
}
