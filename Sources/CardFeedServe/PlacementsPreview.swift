import Foundation
import CardFeedBuild
import CardFeedModel
import CardFeedRender

/// `/_cardfeed/placements/`: every placement of the last good build on a plain host page, in its
/// three forms one under the other (its HTML included as a server would, the web component, the
/// frame), so that a change to a card, a template or cardfeed.yml shows in each as the page
/// updates like any other. It reads the build's `embed/NAME.json` files: the HTML there has
/// addresses relative to the folder above `embed/`, which the page's `<base href="/">` names.
///
/// On a site in several languages each language's tree has a page: the default language's at
/// `/_cardfeed/placements/`, and each tree in a folder at the same folder below it
/// (`/_cardfeed/placements/de/`, the JSON's of `de/embed/`, under `<base href="/de/">`); each
/// page links the others.
enum PlacementsPreview {
    static let path = "/_cardfeed/placements/"
    static let scriptPath = "/_cardfeed/placements.js"
    static let stylePath = "/_cardfeed/placements.css"
    static let script = BuiltinFiles.serveFile("placements.js") ?? Data()
    static let stylesheet = BuiltinFiles.serveFile("placements.css") ?? Data()

    /// What a request under `path` gets.
    enum Answer: Equatable {
        /// The page of the tree's placements; nil for a site without placements.
        case page(PlacementTree?)
        /// A tree's page asked for without its trailing slash, which its `<base href>` needs.
        case moved(to: String)
    }

    /// The page of `trees` (the build's, the default language's first) at `requestPath`; nil
    /// when none is there.
    static func answer(to requestPath: String, trees: [PlacementTree]) -> Answer? {
        if requestPath == path { return .page(trees.first) }
        guard requestPath.hasPrefix(path) else { return nil }
        let rest = requestPath.dropFirst(path.count)
        let folder = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !folder.isEmpty, let tree = trees.first(where: { $0.folder == folder }) else { return nil }
        return rest.hasSuffix("/") ? .page(tree) : .moved(to: requestPath + "/")
    }

    /// Where the page of `tree` is: the default language's (`trees[0]`) at `path`, each other
    /// tree at its folder below it.
    static func address(of tree: PlacementTree, among trees: [PlacementTree]) -> String {
        tree == trees.first || tree.folder.isEmpty ? path : path + tree.folder + "/"
    }

    /// The page of `tree`'s placements (nil: the site has none) in the build in `root`;
    /// `scriptTag` is the live-reload script's.
    static func page(root: URL, tree: PlacementTree?, trees: [PlacementTree], scriptTag: String) -> String {
        let folder = tree?.folder ?? ""
        let embed = root.appendingPathComponent(PlacementFiles.folder(tree: folder))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: embed.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
        let sections = names.compactMap { name -> String? in
            guard let data = try? Data(contentsOf: embed.appendingPathComponent(name + ".json")),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let html = object["html"] as? String
            else { return nil }
            let files = PlacementFiles.paths(of: name, tree: folder)
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
        // The JSON's addresses are relative to the tree's folder; so are the page's.
        let base = folder.isEmpty ? "/" : "/\(folder)/"
        let language = tree.flatMap { $0.language == nil ? nil : " in " + HTMLEscaping.escaped(languageLabel($0)) } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Placements\(language) · cardfeed serve</title>
            <base href="\(base)">
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="\(stylePath)">
            \(sections.isEmpty ? "" : "<link rel=\"stylesheet\" href=\"\(PlacementFiles.stylesheet())\">\n<script src=\"\(PlacementFiles.script())\" defer></script>")
            <script src="\(scriptPath)" defer></script>
            </head>
            <body>
            <main>
            <h1>Placements\(language)</h1>
            \(languageLinks(tree, trees))<p>Each placement of cardfeed.yml as a page of another site shows it, in its three forms (docs/embedding.md). It updates as the site rebuilds.</p>
            \(body)</main>
            \(scriptTag)
            </body>
            </html>

            """
    }

    /// "Deutsch (de)".
    private static func languageLabel(_ tree: PlacementTree) -> String {
        tree.languageName + (tree.language.map { " (\($0))" } ?? "")
    }

    /// On a site in several languages, links to each language's page, this one's marked current;
    /// nothing for a site in one.
    private static func languageLinks(_ tree: PlacementTree?, _ trees: [PlacementTree]) -> String {
        guard let tree, tree.language != nil, trees.count > 1 else { return "" }
        let links = trees.map { other in
            let label = HTMLEscaping.escaped(languageLabel(other))
            return "<li><a href=\"\(address(of: other, among: trees))\"\(other == tree ? " aria-current=\"page\"" : "")>\(label)</a></li>"
        }
        return "<nav aria-label=\"Languages\"><ul class=\"placements__languages\">\(links.joined())</ul></nav>\n"
    }
}
