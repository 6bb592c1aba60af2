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
            guard let content = newValue else { preconditionFailure("a field cannot be set to nothing: \(field)") }
            switch field {
            case .viewed: viewed = content.flag(field)
            case .expiresAt: expiresAt = content.integer(field)
            case .image: image = content.image(field)
            case .imageAlt: imageAlt = content.text(field)
            case .language: language = content.text(field)
            case .title: title = content.text(field)
            case .description: description = content.text(field)
            case .descriptions: descriptionFormat = content.format(field)
            case .url: url = content.text(field)
            case .domain: domain = content.text(field)
            case .aspectRatio: aspectRatio = content.number(field)
            case .useWebView: useWebView = content.flag(field)
            case .pinned: pinned = content.flag(field)
            case .dismissed: dismissed = content.flag(field)
            case .dismissible: dismissible = content.flag(field)
            case .isTest: isTest = content.flag(field)
            case .clicked: clicked = content.flag(field)
            case .subtitle: subtitle = content.text(field)
            case .caption: caption = content.text(field)
            case .displayPrice: displayPrice = content.text(field)
            case .mediaType: mediaType = content.text(field)
            case .itunesID: itunesID = content.integer(field)
            case .universal: universal = content.flag(field)
            case .id, .type, .created, .updated, .categories, .extras, .removed, .rating, .reviews, .price:
                preconditionFailure("\(field) is read by CardDecoder's own code, not set by kind")
            }
        }
    }
}

// A value of another kind than the field's is a mistake in the code that sets it (the card
// reader and rules set each field by its declared `CardField.Value`), found by the table's tests.
extension FieldContent {
    fileprivate func text(_ field: CardField) -> String? {
        guard case .text(let text) = self else { mismatch(field) }
        return text
    }

    fileprivate func image(_ field: CardField) -> CardImage? {
        guard case .image(let image) = self else { mismatch(field) }
        return image
    }

    fileprivate func flag(_ field: CardField) -> Bool {
        guard case .flag(let flag) = self else { mismatch(field) }
        return flag
    }

    fileprivate func number(_ field: CardField) -> Double? {
        guard case .number(let number) = self else { mismatch(field) }
        return number
    }

    fileprivate func integer(_ field: CardField) -> Int64? {
        guard case .integer(let integer) = self else { mismatch(field) }
        return integer
    }

    fileprivate func format(_ field: CardField) -> DescriptionFormat {
        guard case .format(let format) = self else { mismatch(field) }
        return format
    }

    private func mismatch(_ field: CardField) -> Never {
        preconditionFailure("\(field) cannot hold \(self)")
    }
}
