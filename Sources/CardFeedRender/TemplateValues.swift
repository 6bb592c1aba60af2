import CardFeedMustache

extension Optional where Wrapped == String {
    /// The text for a template, or no such field, so that `{{#name}}` skips it.
    var mustache: MustacheValue? { map(MustacheValue.text) }
}
