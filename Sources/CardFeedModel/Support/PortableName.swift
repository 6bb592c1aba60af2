/// Names that every file system a site is copied to can hold. Windows opens a device, not a
/// file, for a name whose part before the first dot (spaces at its end aside) is one of its
/// device names, in any case: `nul`, `Con.html`, `lpt9.json`, `aux .txt`. Such a file cannot be
/// created, checked out or unzipped there, so a site that is published from or copied through
/// Windows loses it.
package enum PortableName {
    /// The device `name` (one file or folder name) would open on Windows, upper-cased ("NUL"
    /// for "nul.txt"); nil for any other name.
    package static func windowsDevice(_ name: some StringProtocol) -> String? {
        var base = Substring(name.prefix { $0 != "." })
        while base.hasSuffix(" ") { base.removeLast() }
        let upper = base.uppercased()
        return windowsDevices.contains(upper) ? upper : nil
    }

    /// Why `name`, a folder or file the build writes (a feed's slug, a placement's name, a
    /// language's folder), cannot be one: "\"con\" is a name Windows keeps for a device (CON)";
    /// nil for a name every system holds. The one rule for every name the site chooses; each
    /// message adds what to do.
    package static func deviceProblem(_ name: String) -> String? {
        windowsDevice(name).map { "\(Diagnostic.quoted(name)) is a name Windows keeps for a device (\($0))" }
    }

    /// The first name along `path` (names joined by "/") that is a Windows device, with it.
    package static func windowsDevice(alongPath path: String) -> (name: String, device: String)? {
        for name in path.split(separator: "/") {
            if let device = windowsDevice(name) { return (String(name), device) }
        }
        return nil
    }

    /// Windows' device names: those of DOS, the numbered ports (the superscript digits too,
    /// which Windows reads as 1, 2 and 3), and the console's.
    static let windowsDevices: Set<String> = Set(
        ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
            + ["COM", "LPT"].flatMap { port in (Array("123456789¹²³")).map { port + String($0) } })
}
