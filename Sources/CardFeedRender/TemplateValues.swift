import CardFeedMustache

extension Optional where Wrapped == String {
    /// The text for a template, or no such field, so that `{{#name}}` skips it.
    var mustache: MustacheValue? { map(MustacheValue.text) }
}

extension MustacheValue {
    static func objects(_ values: [some MustacheObject]) -> MustacheValue { .list(values.map { .object($0) }) }
}
