/// Which templates include which (partials and parents), by index, for the linter's questions
/// about cycles and blocks. Every walk here runs on an explicit stack and visits each template
/// and each inclusion a bounded number of times: a chain of 20,000 partials overflowed the call
/// stack of a recursive search, and a search from every template took quadratic time.
struct TemplateGraph {
    /// `edges[node]`: the nodes it includes, in the order of its tags.
    let edges: [[Int]]

    /// The strongly connected components (Tarjan's algorithm), each listed once, in an order in
    /// which every component comes after all the components it reaches.
    func components() -> [[Int]] {
        let count = edges.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var nextIndex = 0
        // The walk: each frame is a node and the next of its edges to follow.
        var walk: [(node: Int, edge: Int)] = []
        for root in 0..<count where index[root] < 0 {
            walk.append((root, 0))
            index[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let (node, edge) = walk.last {
                if edge < edges[node].count {
                    walk[walk.count - 1].edge += 1
                    let target = edges[node][edge]
                    if index[target] < 0 {
                        index[target] = nextIndex
                        lowLink[target] = nextIndex
                        nextIndex += 1
                        stack.append(target)
                        onStack[target] = true
                        walk.append((target, 0))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], index[target])
                    }
                    continue
                }
                walk.removeLast()
                if let parent = walk.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                guard lowLink[node] == index[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                components.append(component)
            }
        }
        return components
    }

    /// A way from `start` back to itself through nodes of `within` (its component), as the
    /// edges taken: (node, position of the edge in its list). Depth first, in tag order.
    func cycle(through start: Int, within: Set<Int>) -> [(node: Int, edge: Int)]? {
        var visited = Set<Int>()
        var path: [(node: Int, edge: Int)] = [(start, 0)]
        while let (node, edge) = path.last {
            guard edge < edges[node].count else {
                path.removeLast()
                if !path.isEmpty { path[path.count - 1].edge += 1 }
                continue
            }
            let target = edges[node][edge]
            if target == start { return path }
            if within.contains(target), visited.insert(target).inserted {
                path.append((target, 0))
            } else {
                path[path.count - 1].edge += 1
            }
        }
        return nil
    }
}
