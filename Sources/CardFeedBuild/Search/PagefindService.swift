import Foundation
import Synchronization
import CardFeedModel
import CardFeedRender
import CardFeedWrite

/// One run of Pagefind as a service (`pagefind --service`, what its Node and Python packages
/// run): each card goes in as a record of its own, and the index comes back as files, which
/// the build writes into its output like any other file. So the index is part of the output's
/// transaction, unchanged files of it keep their times, and Pagefind never writes a file itself.
///
/// The protocol is theirs: each message a JSON object in base64, followed by a comma, on
/// standard input, and each answer the same on standard output, in order. The service stops
/// when its standard input closes, even with messages still to answer, so it is closed only
/// once the files are in.
extension Pagefind {
    /// Where the index goes in the output.
    package static let folder = "pagefind"

    /// Pagefind ended with an error, or without answering.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The index of `records` as files of the output's `pagefind/` folder. `language` is the
    /// pages' (`<html lang>`): Pagefind keeps an index a language and searches the page's, so
    /// every card goes in the one the pages search, whatever its own language.
    package func index(_ records: [SearchRecord], language: String) throws(Failure) -> [OutputFile] {
        // A write to a service that has died must fail, not end cardfeed with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + ["--service"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw Failure(description: "cannot run \(command.joined(separator: " ")): \(error.localizedDescription)") }
        let answers = AnswerReader(output.fileHandleForReading)
        let errorText = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorsRead.signal()
        }
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        func failure(_ what: String) -> Failure {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            errorsRead.wait()
            let said = errorText.withLock { String(decoding: $0, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
            return Failure(description: "Pagefind (\(command.joined(separator: " "))) \(what)" + (said.isEmpty ? "" : ": \(said)"))
        }

        var writer = MessageWriter(input.fileHandleForWriting)
        // The language as Pagefind names its indexes: "pt-BR" is "pt-br".
        let languageJSON = JSONText.string(language.lowercased())
        do {
            try writer.send(#"{"type":"NewIndex","config":{"force_language":\#(languageJSON)}}"#)
            try writer.flush()
        } catch { throw failure("did not start its service") }
        guard case .answer(let created) = answers.next(), let indexID = created["index_id"] as? Int else {
            throw failure(answers.problem ?? "did not start an index")
        }
        do {
            for record in records {
                try writer.send(Self.addRecord(record, indexID: indexID, language: languageJSON))
            }
            try writer.send(#"{"type":"GetFiles","index_id":\#(indexID)}"#)
            try writer.flush()
        } catch {
            throw failure("stopped taking records")
        }
        guard let files = answers.files(after: records.count) else { throw failure(answers.problem ?? "did not give the index's files") }
        return files.compactMap { path, content in
            Self.isUsed(path) ? OutputFile(path: Self.folder + "/" + path, content: .data(content)) : nil
        }.sorted { $0.path < $1.path }
    }

    /// Pagefind's own search interfaces (its Default, Modular and Component UI, and the script
    /// that highlights a result's words) come with every index; the pages use its JavaScript API
    /// with CardFeed's own search box instead, so those are left out of the output.
    static func isUsed(_ path: String) -> Bool {
        !(path.hasSuffix("-ui.js") || path.hasSuffix("-ui.css") || path == "pagefind-highlight.js")
    }

    /// A card's record: its URL, words and language; what a result shows (`meta`, with the
    /// slugs of the feeds that show it, space-separated, as `feeds`) and its time (the sort key
    /// `date`, numeric).
    ///
    /// The feeds are not a Pagefind filter, which would let a search ask for one feed's cards:
    /// Pagefind 1.5 writes a filter's values in the order of a hash map seeded at random (its
    /// own TODO, in its index/mod.rs), so the index would come out different from one build of
    /// the same cards to the next. Once it writes them in order, `"filters":{"feed":[…]}` here
    /// makes them one.
    static func addRecord(_ record: SearchRecord, indexID: Int, language: String) -> String {
        var meta = [("title", record.title), ("feeds", record.feeds.joined(separator: " "))]
        if let image = record.image { meta.append(("image", image)) }
        if let alt = record.imageAlt { meta.append(("image_alt", alt)) }
        if let date = record.date { meta.append(("date", date)) }
        let metaJSON = meta.map { JSONText.string($0.0) + ":" + JSONText.string($0.1) }.joined(separator: ",")
        return #"{"type":"AddRecord","index_id":\#(indexID),"url":\#(JSONText.string(record.url)),"content":\#(JSONText.string(record.content)),"language":\#(language),"meta":{\#(metaJSON)},"sort":{"date":"\#(record.sortTime)"}}"#
    }
}

/// Writes the service's messages, numbered from 1, a batch at a time.
private struct MessageWriter {
    let handle: FileHandle
    var nextID = 1
    var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func send(_ payload: String) throws {
        let message = #"{"message_id":\#(nextID),"payload":\#(payload)}"#
        nextID += 1
        buffer.append(Data(message.utf8).base64EncodedData())
        buffer.append(UInt8(ascii: ","))
        if buffer.count > 1 << 20 { try flush() }
    }

    mutating func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads the service's answers, in the order of the messages.
private final class AnswerReader {
    enum Answer {
        case answer([String: Any])
        case ended
    }

    private let handle: FileHandle
    private var pending = Data()
    /// What the service said was wrong, or that it ended early.
    private(set) var problem: String?

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next answer's payload; `.ended` when the service stopped, or answered with an error
    /// (then `problem` says which).
    func next() -> Answer {
        guard let message = nextMessage() else {
            problem = problem ?? "ended before answering"
            return .ended
        }
        return decode(message)
    }

    /// Skips the answers to `count` records (failing on the first error), then returns the
    /// files of the answer after them, by path.
    func files(after count: Int) -> [(String, Data)]? {
        for _ in 0..<count {
            guard let message = nextMessage() else {
                problem = "ended before indexing every card"
                return nil
            }
            // An answer is read whole only when it is an error: a quote inside a value is
            // escaped, so this text is the answer's own type.
            if message.range(of: Data(#""type":"Error""#.utf8)) != nil {
                _ = decode(message)
                return nil
            }
        }
        guard case .answer(let payload) = next(), let files = payload["files"] as? [[String: Any]] else { return nil }
        var decoded: [(String, Data)] = []
        for file in files {
            guard let path = file["path"] as? String, let text = file["content"] as? String, let content = Data(base64Encoded: text),
                  !path.hasPrefix("/"), !path.split(separator: "/").contains("..")
            else {
                problem = "gave a file CardFeed cannot read"
                return nil
            }
            decoded.append((path, content))
        }
        return decoded
    }

    private func decode(_ message: Data) -> Answer {
        guard let object = (try? JSONSerialization.jsonObject(with: message)) as? [String: Any],
              let payload = object["payload"] as? [String: Any]
        else {
            problem = "answered with something that is not its protocol"
            return .ended
        }
        if payload["type"] as? String == "Error" {
            problem = "failed: \(payload["message"] as? String ?? "an error without a message")"
            return .ended
        }
        return .answer(payload)
    }

    /// One answer's JSON, nil at the end of the output. The bytes after a comma are searched
    /// once: the answer that holds the index's files can be a hundred megabytes.
    private func nextMessage() -> Data? {
        while true {
            if let comma = pending[scanned...].firstIndex(of: UInt8(ascii: ",")) {
                let encoded = pending[pending.startIndex..<comma]
                pending.removeSubrange(pending.startIndex...comma)
                scanned = pending.startIndex
                guard let message = Data(base64Encoded: encoded) else {
                    problem = "answered with something that is not base64"
                    return nil
                }
                return message
            }
            scanned = pending.endIndex
            let more = handle.availableData
            if more.isEmpty { return nil }
            pending.append(more)
        }
    }

    /// Where the search for the next comma goes on from in `pending`.
    private var scanned = 0
}

/// JSON text written directly: the records are many and small, and their order fixed.
enum JSONText {
    /// `text` as a JSON string, quotes included.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
