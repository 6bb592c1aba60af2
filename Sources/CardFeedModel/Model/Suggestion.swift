/// "Did you mean": the names a mistyped one was probably meant to be, for every name a user types
/// (a command, an option, a site folder, a card id, type or category, a feed's slug, a placement,
/// a template, a setting's key). One rule for all of them, so that they suggest alike
/// (SuggestionTests holds it to a table).
package enum Suggestion {
    /// At most two of `candidates` that `name` was probably meant to be, closest first:
    /// the one that differs only in case; else those a few edits away (a third of the name's
    /// letters at most, a swap of two neighbours counting as one, "nwes" for "news"); else those
    /// that the name begins, a name cut short ("sale" for "sale-de" and "sale-en", the shortest
    /// first). Two only where both are as close; ties go in sorted order. None for `name` itself.
    package static func names(for name: String, among candidates: some Sequence<String>) -> [String] {
        let lowered = name.lowercased()
        guard !lowered.isEmpty else { return [] }
        let limit = max(1, name.count / 3)
        var typos: [(name: String, distance: Int)] = []
        var longer: [String] = []
        for candidate in Set(candidates) where candidate != name {
            let other = candidate.lowercased()
            if other == lowered { return [candidate] }
            let distance = abs(other.count - lowered.count) > limit ? Int.max : editDistance(lowered, other)
            if distance <= limit {
                typos.append((candidate, distance))
            } else if lowered.count >= 2, other.hasPrefix(lowered) {
                longer.append(candidate)
            }
        }
        if let best = typos.map(\.distance).min() {
            return Array(typos.filter { $0.distance == best }.map(\.name).sorted().prefix(2))
        }
        return Array(longer.sorted { ($0.count, $0) < ($1.count, $1) }.prefix(2))
    }

    /// ` (did you mean "news"?)`, ` (did you mean "sale-de" or "sale-en"?)`, or "" when no name
    /// is close: the words a message adds after the name it could not find.
    package static func phrase(for name: String, among candidates: some Sequence<String>) -> String {
        let found = names(for: name, among: candidates)
        guard !found.isEmpty else { return "" }
        return " (did you mean \(found.map { Diagnostic.quoted($0) }.joined(separator: " or "))?)"
    }

    /// Edit distance counting a swap of two neighbouring letters as one edit ("titel" -> "title").
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
