import Foundation
import Testing

@testable import CardFeedServe
import CardFeedModel

struct SiteWatcherTests {
    @Test func seesEditsAdditionsAndRemovalsOfWatchedFilesOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cards"), withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: root.appendingPathComponent("cards.json"))
        let watcher = SiteWatcher(site: SiteFolder(root.path))
        let before = watcher.snapshot()
        #expect(Set(before.keys) == ["cards.json"])

        try Data("[ ]".utf8).write(to: root.appendingPathComponent("cards.json"))
        try Data("{}".utf8).write(to: root.appendingPathComponent("cards/more.json"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("templates/page.mustache"))
        try Data("x".utf8).write(to: root.appendingPathComponent("cardfeed.yml"))
        // Not inputs: the output, editor swap files, anything else at the top.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("public"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("public/index.html"))
        try Data("x".utf8).write(to: root.appendingPathComponent("cards/.more.json.swp"))
        try Data("x".utf8).write(to: root.appendingPathComponent("notes.txt"))
        let after = watcher.snapshot()
        #expect(SiteWatcher.difference(before, after) == ["cards.json", "cards/more.json", "templates/page.mustache", "cardfeed.yml"])

        try FileManager.default.removeItem(at: root.appendingPathComponent("cards/more.json"))
        #expect(SiteWatcher.difference(after, watcher.snapshot()) == ["cards/more.json"])
    }

    @Test(arguments: [false, true])
    func coalescesABurstOfChangesIntoOne(polling: Bool) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cards"), withIntermediateDirectories: true)
        let watcher = SiteWatcher(site: SiteFolder(root.path), interval: .milliseconds(50), settle: .milliseconds(80), polling: polling)
        let changes = watcher.changes()
        var iterator = changes.makeAsyncIterator()
        // The watch is live once it reports a change: a fixed wait is too short on a busy
        // machine, where the burst's first file went unseen. A file that grows until the
        // watcher sees it tells when (a change made before the watch began is not one).
        let ready = root.appendingPathComponent("cards/ready.json")
        let touching = Task {
            for size in 1...100 where !Task.isCancelled {
                try? Data(String(repeating: " ", count: size).utf8).write(to: ready)
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        _ = await iterator.next()
        touching.cancel()
        _ = await touching.value
        try await Task.sleep(for: .milliseconds(300))
        _ = watcher.takeChanges()
        for index in 0..<5 {
            try Data("[\(index)]".utf8).write(to: root.appendingPathComponent("cards/c\(index).json"))
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = await iterator.next()
        try await Task.sleep(for: .milliseconds(300))
        #expect(watcher.takeChanges() == (0..<5).map { "cards/c\($0).json" })
        #expect(watcher.takeChanges().isEmpty)
    }

    #if os(Linux)
    /// The kernel's notifications, in folders that exist when the watch begins and in those
    /// that appear later (cards/ itself, a folder inside it).
    @Test func notificationsCoverFoldersThatAppearLater() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Polling once a minute: a change seen within seconds came from the kernel.
        let watcher = SiteWatcher(site: SiteFolder(root.path), interval: .seconds(60), settle: .milliseconds(30))
        #expect(watcher.method == "inotify")
        var changes = watcher.changes().makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(50))
        for (folder, file) in [("cards", "cards/a.json"), ("cards/more", "cards/more/b.json"), ("", "cardfeed.yml")] {
            if !folder.isEmpty { try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true) }
            try await Task.sleep(for: .milliseconds(100))
            try Data("[]".utf8).write(to: root.appendingPathComponent(file))
            let start = ContinuousClock.now
            _ = await changes.next()
            #expect(ContinuousClock.now - start < .seconds(30), "seen by the kernel, not by the poll a minute later")
            #expect(watcher.takeChanges() == [file])
        }
    }
    #endif
}
