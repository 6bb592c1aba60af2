/// The files of SITE/assets/ that a card's image or a description's link may name, by path
/// relative to it: a value, so that the decoder that holds it is one.
package struct AssetFiles: Sendable, Hashable, Decodable {
    let paths: Set<String>

    package static func listed(_ paths: Set<String>) -> AssetFiles { AssetFiles(paths: paths) }

    package func contains(_ path: String) -> Bool { paths.contains(path) }
}
