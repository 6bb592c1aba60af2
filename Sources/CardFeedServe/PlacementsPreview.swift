import Foundation
import CardFeedModel
import CardFeedRender

/// `/_cardfeed/placements/`: every placement of the last good build on a plain host page, in its
/// three forms one under the other (its HTML included as a server would, the web component, the
/// frame), so that a change to a card, a template or cardfeed.yml shows in each as the page
/// updates like any other. It reads the build's `embed/NAME.json` files: the HTML there has
/// addresses relative to the site's root, which the page's `<base href="/">` names.
enum PlacementsPreview {
    static let path = "/_cardfeed/placements/"
    static let scriptPath = "/_cardfeed/placements.js"
    static let stylePath = "/_cardfeed/placements.css"
    static let script = BuiltinFiles.serveFile("placements.js") ?? Data()
    static let stylesheet = BuiltinFiles.serveFile("placements.css") ?? Data()

    /// The page for the build in `root`; `scriptTag` is the live-reload script's.
    static func page(root: URL, scriptTag: String) -> String {
        let folder = root.appendingPathComponent(PlacementFiles.folder())
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
        let sections = names.compactMap { name -> String? in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name + ".json")),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let html = object["html"] as? String
            else { return nil }
            let files = PlacementFiles.paths(of: name)
            return """
                <section aria-labelledby="placement-\(name)">
                <h2 class="placements__name" id="placement-\(name)">\(name)</h2>
                <h3 class="placements__form">HTML included on the server: \(files[0])</h3>
                \(html)
                <h3 class="placements__form">Web component: &lt;cardfeed-placement src="…/\(files[1])"&gt;</h3>
                <cardfeed-placement src="/\(files[1])"></cardfeed-placement>
                <h3 class="placements__form">Frame: \(files[2].dropLast("index.html".count))</h3>
                <iframe class="placements__frame" src="/\(files[2].dropLast("index.html".count))" title="\(name) in a frame" data-cardfeed="\(name)"></iframe>
                </section>

                """
        }
        let body = sections.isEmpty
            ? "<p>The site has no placements: add them to cardfeed.yml under <code>placements:</code> (docs/embedding.md).</p>\n"
            : sections.joined()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Placements · cardfeed serve</title>
            <base href="/">
            <link rel="stylesheet" href="\(stylePath)">
            \(sections.isEmpty ? "" : "<link rel=\"stylesheet\" href=\"\(PlacementFiles.stylesheet())\">\n<script src=\"\(PlacementFiles.script())\" defer></script>")
            <script src="\(scriptPath)" defer></script>
            </head>
            <body>
            <main>
            <h1>Placements</h1>
            <p>Each placement of cardfeed.yml as a page of another site shows it, in its three forms (docs/embedding.md). It updates as the site rebuilds.</p>
            \(body)</main>
            \(scriptTag)
            </body>
            </html>

            """
    }
}
