import FlyingFox
import Foundation
import CardFeedBuild
import CardFeedModel

/// Answers every request of `serve`: the files of the last good build (HTML with the live-reload
/// script added), and under the reserved `/_cardfeed/` the script, its stylesheet, the event
/// stream and the placements' preview (`PlacementsPreview`). Nothing outside the build folder is ever served.
struct PreviewHandler: HTTPHandler {
    static let reservedPrefix = "/_cardfeed/"
    static let eventsPath = "/_cardfeed/events"
    static let scriptPath = "/_cardfeed/live.js"
    static let stylePath = "/_cardfeed/live.css"

    let builder: PreviewBuilder
    let channel: ReloadChannel
    /// Differs between runs of `serve`, so a page from an earlier run reloads.
    let instance: String
    /// The event streams open (`ConnectionLimits.eventStreams`).
    let eventStreams: OpenCount
    /// Called when the limit on event streams is first reached in a while.
    let onEventStreamLimit: @Sendable () -> Void

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.text(.methodNotAllowed, "Only GET and HEAD are served.\n", extra: [HTTPHeader("Allow"): "GET, HEAD"])
        }
        let head = request.method == .HEAD
        let raw = request.target.path()
        switch raw {
        case Self.eventsPath: return await events()
        case Self.scriptPath: return Self.response(LiveScript.javascript, type: ContentType.of(path: raw), head: head)
        case Self.stylePath: return Self.response(LiveScript.stylesheet, type: ContentType.of(path: raw), head: head)
        case PlacementsPreview.scriptPath: return Self.response(PlacementsPreview.script, type: ContentType.of(path: raw), head: head)
        case PlacementsPreview.stylePath: return Self.response(PlacementsPreview.stylesheet, type: ContentType.of(path: raw), head: head)
        case String(PlacementsPreview.path.dropLast()): return Self.text(.movedPermanently, "Moved to \(PlacementsPreview.path)\n", extra: [.location: PlacementsPreview.path])
        case _ where raw.hasPrefix(PlacementsPreview.path):
            let state = builder.current
            guard let root = state.root, let answer = PlacementsPreview.answer(to: raw, trees: state.placementTrees) else { break }
            switch answer {
            case .page(let tree):
                let page = PlacementsPreview.page(root: root, tree: tree, trees: state.placementTrees, scriptTag: scriptTag(state))
                return Self.response(Data(page.utf8), type: ContentType.html, head: head)
            case .moved(let location):
                return Self.text(.movedPermanently, "Moved to \(location)\n", extra: [.location: location])
            }
        default: break
        }
        guard !raw.hasPrefix(Self.reservedPrefix), let segments = RequestPath.segments(ofRawPath: raw) else {
            return notFound(head: head)
        }
        // The placements' files are for pages of other origins (a host page on another port of
        // this machine; `HostPolicy.sharesPlacements` refuses any other), as published sites
        // serve them (docs/embedding.md); so is their 404, which the component then names.
        let shared: [HTTPHeader: String] = RequestPath.isPlacementsFile(raw) ? [HTTPHeader("Access-Control-Allow-Origin"): "*"] : [:]
        let state = builder.current
        guard let root = state.root else {
            return Self.response(Data(page(title: "Not built yet", message: "The site has not built yet; the errors are shown above.", state: state).utf8),
                                 status: .serviceUnavailable, type: ContentType.html, head: head)
        }
        // The search index is made apart from the site (see `PreviewSearch`).
        let under = segments.first == Pagefind.folder ? builder.search.folder : root
        guard let file = RequestPath.file(segments, under: under) else { return notFound(head: head, extra: shared) }
        if file.isFolderIndex, !segments.isEmpty, !raw.hasSuffix("/") {
            // Pages name their root with a relative <base href>, which needs the trailing slash.
            let query = request.target.query()
            let location = raw + "/" + (query.isEmpty ? "" : "?" + query)
            return Self.text(.movedPermanently, "Moved to \(location)\n", extra: [.location: location])
        }
        guard var data = try? Data(contentsOf: file.url) else { return notFound(head: head, extra: shared) }
        let type = ContentType.of(path: file.url.path)
        if type == ContentType.html { data = Data(inject(into: String(decoding: data, as: UTF8.self), state: state).utf8) }
        return Self.response(data, type: type, head: head, extra: shared)
    }

    // MARK: - The live-reload script

    /// The tag `serve` adds to every HTML page; an absolute path, because pages set `<base href>`.
    func scriptTag(_ state: PreviewBuilder.State) -> String {
        "<script src=\"\(Self.scriptPath)\" data-build=\"\(instance)-\(state.generation)\" defer></script>"
    }

    /// Adds the script before the last `</body>` (or at the end of a page without one).
    func inject(into html: String, state: PreviewBuilder.State) -> String {
        let tag = scriptTag(state)
        guard let range = html.range(of: "</body>", options: [.backwards, .caseInsensitive]) else { return html + tag + "\n" }
        return html.replacingCharacters(in: range.lowerBound..<range.lowerBound, with: tag + "\n")
    }

    /// What a page learns when it connects: the build it should show and the current errors.
    func hello(_ state: PreviewBuilder.State) -> String {
        Self.json(StatusMessage(build: "\(instance)-\(state.generation)", errors: state.errors.map(ErrorMessage.init)))
    }

    /// What a page learns after a good rebuild: also the files that build wrote or removed, so
    /// that it fetches again the stylesheets and images it shows from those (their URLs did not
    /// change, and a browser keeps what it loaded under a URL for the life of the page).
    func rebuilt(_ state: PreviewBuilder.State) -> String {
        Self.json(StatusMessage(build: "\(instance)-\(state.generation)", errors: [], changed: state.changed))
    }

    private func events() async -> HTTPResponse {
        if case .refused(let first) = eventStreams.admit() {
            if first { onEventStreamLimit() }
            return Self.text(.serviceUnavailable, "Too many pages are open with live reload; this one will not reload by itself until some close.\n")
        }
        let stream = await channel.subscribe(first: ReloadChannel.message(event: "hello", data: hello(builder.current)), ended: eventStreams.release)
        return HTTPResponse(
            statusCode: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: HTTPBodySequence(from: stream, suggestedBufferSize: 16_384))
    }

    private func notFound(head: Bool, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        let html = page(title: "Not found", message: "There is no such page in the site.", state: builder.current)
        return Self.response(Data(html.utf8), status: .notFound, type: ContentType.html, head: head, extra: extra)
    }

    /// A small page of the server's own, with the live script, so it too reloads when the site builds.
    private func page(title: String, message: String, state: PreviewBuilder.State) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark"><title>\(title) · cardfeed serve</title></head>
        <body><h1>\(title)</h1><p>\(message)</p><p><a href="/">Home</a></p>
        \(scriptTag(state))
        </body>
        </html>

        """
    }

    // MARK: - Responses

    static func response(_ data: Data, status: HTTPStatusCode = .ok, type: String, head: Bool, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        var headers: HTTPHeaders = [
            .contentType: type, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff",
        ]
        for (key, value) in extra { headers[key] = value }
        if head { headers[.contentLength] = String(data.count) }
        return HTTPResponse(statusCode: status, headers: headers, body: head ? Data() : data)
    }

    static func text(_ status: HTTPStatusCode, _ text: String, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"]
        for (key, value) in extra { headers[key] = value }
        return HTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8))
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    struct StatusMessage: Encodable {
        var build: String
        var errors: [ErrorMessage]
        var changed: [String]?
    }

    /// One build error as the overlay shows it.
    struct ErrorMessage: Encodable {
        var text: String
        var file: String
        var line: Int?
        var column: Int?
        var message: String

        init(_ diagnostic: Diagnostic) {
            text = diagnostic.description
            file = diagnostic.file
            line = diagnostic.line
            column = diagnostic.column
            message = diagnostic.message
        }
    }
}
