extension Card {
    /// The words for an image the card shows alone (see `showsOnlyItsImage`) when the card gives
    /// no `image_alt`: its title, else its domain, else the words its link is shown with (the
    /// host, or a `mailto:` or `tel:` link's address or number alone; an empty one counts as
    /// none). Here rather than beside `Card`, since it reads URLs as `URLCheck` does.
    public var wordsForItsImage: String? {
        [self.title, self.domain, self.url.flatMap(URLCheck.words)].lazy.compactMap { $0 }.first { !$0.isEmpty }
    }
}
