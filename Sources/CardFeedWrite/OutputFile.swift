import Foundation

/// A file of the output: rendered text, bytes, a file copied from the site, or a page streamed
/// to disk when it is written.
public struct OutputFile: Sendable {
    public enum Content: Sendable {
        case text(String)
        case data(Data)
        case copy(URL)
        /// A file the build made in its scratch folder, which it removes after: an output on the
        /// same file system takes the file itself (`OutputTarget.adopt`), the others its bytes.
        case scratchFile(URL)
        case stream(@Sendable (OutputSink) throws -> Void)
    }

    /// Relative to the output folder, "/"-separated.
    public var path: String
    public var content: Content

    package init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    /// Writes the file's bytes to `sink`, which the caller finishes (see `OutputTarget`).
    func write(to sink: OutputSink) throws {
        switch content {
        case .text(let text): try sink.write(text)
        case .data(let data): try sink.write(data)
        case .copy(let source), .scratchFile(let source): try sink.write(Data(contentsOf: source))
        case .stream(let write): try write(sink)
        }
    }
}
