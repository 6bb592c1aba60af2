import CardFeedSystem

// A card and its messages as the build cache keeps them between builds (`BinaryWriter`), so
// that a rebuild takes an unchanged entry of a card file as it was decoded instead of parsing
// and checking it again; a card's fields as written here are also what its key hashes
// (`Card.Fields.stableHash(into:)`). Every field is written, in the order of its type's
// declaration; `CardRecordTests` edits each field of a card (found from the type) and each of a
// message, and reads it back, so a field added to a type and not here fails it.

extension Card.Fields {
    /// Writes the fields, then `source`; returns where the fields' own bytes are in the writer's
    /// (what their hash hashes, see `Card.write(into:)`).
    @discardableResult
    package func write(into writer: inout BinaryWriter) -> Range<Int> {
        let start = writer.bytes.count
        write(fieldsInto: &writer)
        let fieldsEnd = writer.bytes.count
        source.write(into: &writer)
        return start..<fieldsEnd
    }

    /// Every field but `source`, which is where the card was read, not what it is: what its key
    /// hashes too (`stableHash(into:)`).
    package func write(fieldsInto writer: inout BinaryWriter) {
        writer.write(id)
        writer.write(type.rawValue)
        writer.write(viewed)
        writer.write(created)
        writer.write(updated)
        writer.write(expiresAt)
        writer.write(categories.count)
        for category in categories { writer.write(category.rawValue) }
        writer.write(extras.count)
        for extra in extras { writer.write(extra.key); writer.write(extra.value) }
        switch image {
        case nil: writer.write(0)
        case .remote(let url): writer.write(1); writer.write(url)
        case .asset(let path): writer.write(2); writer.write(path)
        }
        writer.write(imageAlt)
        writer.write(language)
        writer.write(title)
        writer.write(description)
        writer.write(descriptionFormat.rawValue)
        writer.write(url)
        writer.write(domain)
        writer.write(aspectRatio)
        writer.write(useWebView)
        writer.write(pinned)
        writer.write(dismissed)
        writer.write(removed)
        writer.write(dismissible)
        writer.write(isTest)
        writer.write(clicked)
        writer.write(subtitle)
        writer.write(caption)
        writer.write(rating)
        writer.write(reviews.map(Int64.init))
        writer.write(price)
        writer.write(displayPrice)
        writer.write(mediaType)
        writer.write(itunesID)
        writer.write(universal)
        writer.write(styles.count)
        for style in styles { writer.write(style.name); writer.write(style.value) }
        writer.write(templateName)
    }

    /// A card as `write(into:)` wrote it; `Unreadable` when the bytes are not such a card (a
    /// cache written by another CardFeed is never read, so this means damage).
    package init(reading reader: inout BinaryReader) throws(BinaryReader.Unreadable) {
        let id = try reader.string()
        guard let type = CardType(rawValue: try reader.string()) else { throw .init() }
        // Read into `self`, not into a value copied into it at the end: that copy retained and
        // released each of its strings, a tenth of this time.
        self.init(id: id, type: type, source: CardSource(file: "", index: 0, order: 0))
        self.viewed = try reader.bool()
        self.created = try reader.optionalInt64()
        self.updated = try reader.int64()
        self.expiresAt = try reader.optionalInt64()
        // The lists read by hand, not through `BinaryReader.list`: its generic body is not
        // specialized across modules, and took a quarter of this time.
        let categoryCount = try reader.count()
        self.categories.reserveCapacity(categoryCount)
        for _ in 0..<categoryCount {
            guard let category = FeedCategory(rawValue: try reader.string()) else { throw .init() }
            self.categories.append(category)
        }
        for _ in 0..<(try reader.count()) { self.extras.append(Card.Extra(key: try reader.string(), value: try reader.string())) }
        switch try reader.int() {
        case 0: self.image = nil
        case 1: self.image = .remote(try reader.string())
        case 2: self.image = .asset(try reader.string())
        default: throw .init()
        }
        self.imageAlt = try reader.optionalString()
        self.language = try reader.optionalString()
        self.title = try reader.optionalString()
        self.description = try reader.optionalString()
        guard let format = DescriptionFormat(rawValue: try reader.string()) else { throw .init() }
        self.descriptionFormat = format
        self.url = try reader.optionalString()
        self.domain = try reader.optionalString()
        self.aspectRatio = try reader.optionalDouble()
        self.useWebView = try reader.bool()
        self.pinned = try reader.bool()
        self.dismissed = try reader.bool()
        self.removed = try reader.bool()
        self.dismissible = try reader.bool()
        self.isTest = try reader.bool()
        self.clicked = try reader.bool()
        self.subtitle = try reader.optionalString()
        self.caption = try reader.optionalString()
        self.rating = try reader.optionalDouble()
        self.reviews = try reader.optionalInt64().map(Int.init)
        self.price = try reader.optionalDouble()
        self.displayPrice = try reader.optionalString()
        self.mediaType = try reader.optionalString()
        self.itunesID = try reader.optionalInt64()
        self.universal = try reader.bool()
        for _ in 0..<(try reader.count()) { self.styles.append(CSSProperty(name: try reader.string(), value: try reader.string())) }
        self.templateName = try reader.optionalString()
        self.source = try CardSource(reading: &reader)
    }
}

extension CardSource {
    package func write(into writer: inout BinaryWriter) {
        writer.write(file)
        writer.write(index)
        writer.write(order)
        writer.write(offset.map(Int64.init))
        writer.write(blankLinkKey)
    }

    package init(reading reader: inout BinaryReader) throws(BinaryReader.Unreadable) {
        self.init(file: try reader.string(), index: try reader.int(), order: try reader.int(), offset: try reader.optionalInt64().map(Int.init))
        blankLinkKey = try reader.optionalString()
    }
}

extension Diagnostic {
    package func write(into writer: inout BinaryWriter) {
        writer.write(severity.rawValue)
        writer.write(file)
        writer.write(line.map(Int64.init))
        writer.write(column.map(Int64.init))
        writer.write(cardIndex.map(Int64.init))
        writer.write(cardID)
        writer.write(field)
        writer.write(message)
        writer.write(summary)
        writer.write(cardOffset.map(Int64.init))
        writer.write(keysSetAside != nil)
        if let keysSetAside {
            writer.write(keysSetAside.count)
            for key in keysSetAside { writer.write(key) }
        }
    }

    package init(reading reader: inout BinaryReader) throws(BinaryReader.Unreadable) {
        guard let severity = Severity(rawValue: try reader.string()) else { throw .init() }
        let file = try reader.string()
        let line = try reader.optionalInt64().map(Int.init)
        let column = try reader.optionalInt64().map(Int.init)
        let cardIndex = try reader.optionalInt64().map(Int.init)
        let cardID = try reader.optionalString()
        let field = try reader.optionalString()
        self.init(severity, file: file, line: line, column: column, cardIndex: cardIndex, cardID: cardID, field: field, message: try reader.string())
        summary = try reader.optionalString()
        cardOffset = try reader.optionalInt64().map(Int.init)
        if try reader.bool() { keysSetAside = try reader.list { reader throws(BinaryReader.Unreadable) in try reader.string() } }
    }
}
