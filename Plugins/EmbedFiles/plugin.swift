import Foundation
import PackagePlugin

/// Embeds the package's top-level `templates/`, `assets/`, `strings/`, `scaffold/`, `serve/` and `embed/` folders and its
/// `VERSION` file into the target as a generated Swift file, so that `cardfeed` carries its built-in templates and images wherever
/// the binary is copied (a resource bundle would have to travel beside it).
///
/// SwiftPM asks a plugin for its commands when the package graph changes, not at every build, so the list of files it saw then
/// would leave a file added later out (a new format's template would be an empty file). The command is given the folders
/// instead, which the tool walks itself at every run, and each folder is an input beside its files: adding or removing a file
/// changes its folder, which runs the command again.
@main
struct EmbedFiles: BuildToolPlugin {
    static let folders = ["templates", "assets", "strings", "scaffold", "serve", "embed"]
    static let topLevelFiles = ["VERSION"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for folder in Self.folders {
            let url = root.appending(path: folder)
            inputs += [url] + Self.entries(under: url)
        }
        inputs += Self.topLevelFiles.map { root.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the files of templates/, assets/, strings/, scaffold/, serve/, embed/ and VERSION",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [root.path, output.path] + Self.folders + Self.topLevelFiles,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// Files and folders below `folder`, hidden ones left out.
    static func entries(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { return [] }
        return walker.compactMap { $0 as? URL }.sorted { $0.path < $1.path }
    }
}
