import Foundation

/// Writes a Swift file holding the given files, and every file below the given folders (hidden
/// ones left out), as base64 string literals. It walks the folders itself at every run: the
/// plugin's list of files is as old as the package graph (Plugins/EmbedFiles).
///
/// Usage: EmbedFilesTool ROOT OUTPUT RELATIVE_PATH...
/// Base64 string literals compile quickly, unlike large array literals.
@main
struct EmbedFilesTool {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: EmbedFilesTool ROOT OUTPUT [PATH...]\n".utf8))
            exit(2)
        }
        let root = URL(fileURLWithPath: arguments[arguments.startIndex])
        let output = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
        var source = """
            // Generated at build time by the EmbedFiles plugin (Plugins/EmbedFiles). Do not edit.

            enum EmbeddedFiles {
                /// Path relative to the package root -> base64 of the file's bytes.
                static let base64: [String: String] = [

            """
        var paths: [String] = []
        for path in arguments.dropFirst(2) {
            let url = root.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
                paths.append(path)
                continue
            }
            let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            while let file = walker?.nextObject() as? URL {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                paths.append(path + "/" + String(file.standardizedFileURL.path.dropFirst(url.standardizedFileURL.path.count + 1)))
            }
        }
        for path in paths.sorted() {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            source += "        \"\(path)\": \"\(data.base64EncodedString())\",\n"
        }
        source += "    ]\n}\n"
        let existing = try? String(contentsOf: output, encoding: .utf8)
        if existing != source {
            try source.write(to: output, atomically: true, encoding: .utf8)
        }
    }
}
