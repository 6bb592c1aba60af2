/// A field's value as `Card.Fields[field]` reads and writes it: one case a kind of stored
/// property, whatever `CardField.Value` says about how files write it (a link is kept as
/// text, a time as whole seconds).
public enum FieldContent: Sendable, Equatable {
    case text(String?)
    case image(CardImage?)
    case flag(Bool)
    case number(Double?)
    case integer(Int64?)
    case format(DescriptionFormat)
}

extension Card.Fields {
    /// Where each field of `CardField`'s table is kept: the one switch from a field to its
    /// stored property, both ways; nil for the fields `CardDecoder` reads with its own code.
    /// A switch rather than key paths in the table: the card reader and the card view go
    /// through here for every field of every card, and a key path applied at run time is a
    /// generic projection, several times slower than a switch's direct access.
    public subscript(field: CardField) -> FieldContent? {
        get {
            switch field {
            case .viewed: .flag(viewed)
            case .expiresAt: .integer(expiresAt)
            case .image: .image(image)
            case .imageAlt: .text(imageAlt)
            case .language: .text(language)
            case .title: .text(title)
            case .description: .text(description)
            case .descriptions: .format(descriptionFormat)
            case .url: .text(url)
            case .domain: .text(domain)
            case .aspectRatio: .number(aspectRatio)
            case .useWebView: .flag(useWebView)
            case .pinned: .flag(pinned)
            case .dismissed: .flag(dismissed)
            case .dismissible: .flag(dismissible)
            case .isTest: .flag(isTest)
            case .clicked: .flag(clicked)
            case .subtitle: .text(subtitle)
            case .caption: .text(caption)
            case .displayPrice: .text(displayPrice)
            case .mediaType: .text(mediaType)
            case .itunesID: .integer(itunesID)
            case .universal: .flag(universal)
            case .id, .type, .created, .updated, .categories, .extras, .removed, .rating, .reviews, .price: nil
            }
        }
        set {
            // A value of another kind than the field's (or none) is a mistake in the code that sets
            // it (the card reader and rules set each field by its declared `CardField.Value`), found
            // by the table's tests.
            switch (field, newValue) {
            case (.viewed, .flag(let value)?): viewed = value
            case (.expiresAt, .integer(let value)?): expiresAt = value
            case (.image, .image(let value)?): image = value
            case (.imageAlt, .text(let value)?): imageAlt = value
            case (.language, .text(let value)?): language = value
            case (.title, .text(let value)?): title = value
            case (.description, .text(let value)?): description = value
            case (.descriptions, .format(let value)?): descriptionFormat = value
            case (.url, .text(let value)?): url = value
            case (.domain, .text(let value)?): domain = value
            case (.aspectRatio, .number(let value)?): aspectRatio = value
            case (.useWebView, .flag(let value)?): useWebView = value
            case (.pinned, .flag(let value)?): pinned = value
            case (.dismissed, .flag(let value)?): dismissed = value
            case (.dismissible, .flag(let value)?): dismissible = value
            case (.isTest, .flag(let value)?): isTest = value
            case (.clicked, .flag(let value)?): clicked = value
            case (.subtitle, .text(let value)?): subtitle = value
            case (.caption, .text(let value)?): caption = value
            case (.displayPrice, .text(let value)?): displayPrice = value
            case (.mediaType, .text(let value)?): mediaType = value
            case (.itunesID, .integer(let value)?): itunesID = value
            case (.universal, .flag(let value)?): universal = value
            case (.id, _), (.type, _), (.created, _), (.updated, _), (.categories, _), (.extras, _), (.removed, _), (.rating, _), (.reviews, _), (.price, _):
                preconditionFailure("\(field) is read by CardDecoder's own code, not set by kind")
            default:
                preconditionFailure("\(field) cannot hold \(newValue.map { "\($0)" } ?? "nothing")")
            }
        }
    }
}

