import Foundation
import PackagePlugin

/// Embeds the package's top-level `templates/`, `assets/`, `strings/`, `scaffold/`, `serve/` and `embed/` folders and its
/// `VERSION` file into the target as a generated Swift file, so that `cardfeed` carries its built-in templates and images wherever
/// the binary is copied (a resource bundle would have to travel beside it).
@main
struct EmbedFiles: BuildToolPlugin {
    static let folders = ["templates", "assets", "strings", "scaffold", "serve", "embed"]
    static let topLevelFiles = ["VERSION"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for folder in Self.folders {
            inputs += Self.files(under: root.appending(path: folder))
        }
        inputs += Self.topLevelFiles.map { root.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        let relativePaths = inputs.map { String($0.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files of templates/, assets/, strings/, scaffold/, serve/, embed/ and VERSION",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [root.path, output.path] + relativePaths,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// Regular files below `folder`, sorted, hidden files left out.
    static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        ) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
