import CYaml
import CardFeedSystem

/// How big a YAML document becomes once every alias is expanded, counted from libyaml's events
/// before any node tree is built. Yams shares an aliased node rather than copying it, but
/// hashing a mapping key or reading the tree walks every expanded copy: a 534-byte "billion
/// laughs" document used as a key spun for minutes. Counting events is linear in the text.
enum YAMLExpansion {
    /// Far more than any cardfeed.yml needs (a site with 1,000 rules has about 20,000 nodes).
    static let nodeLimit = 100_000

    struct TooLarge: Error {
        /// 1-based line and column of the alias that passed the limit.
        var line: Int
        var column: Int
    }

    /// Throws at the alias with which the document would pass `limit` nodes. A document
    /// libyaml cannot parse passes: Yams reports that error with its position.
    static func check(_ text: String, limit: Int = nodeLimit) throws(TooLarge) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        try text.withByteView { (bytes) throws(TooLarge) in
            // libyaml reads the text from its address as it parses, all within this call.
            yaml_parser_set_input_string(&parser, bytes.address, bytes.count)
            // Nodes so far with aliases expanded; the expanded size of each anchor; for each
            // open collection, its anchor and the count when it started.
            var total = 0
            var sizes: [String: Int] = [:]
            var open: [(anchor: String?, start: Int)] = []
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_SCALAR_EVENT:
                    total += 1
                    if let anchor = String(nulTerminated: event.data.scalar.anchor) { sizes[anchor] = 1 }
                case YAML_SEQUENCE_START_EVENT:
                    total += 1
                    open.append((String(nulTerminated: event.data.sequence_start.anchor), total - 1))
                case YAML_MAPPING_START_EVENT:
                    total += 1
                    open.append((String(nulTerminated: event.data.mapping_start.anchor), total - 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let (anchor, start) = open.popLast(), let anchor { sizes[anchor] = total - start }
                case YAML_ALIAS_EVENT:
                    total += String(nulTerminated: event.data.alias.anchor).flatMap { sizes[$0] } ?? 1
                    if total > limit {
                        throw TooLarge(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                    }
                default:
                    break
                }
            }
        }
    }
}
