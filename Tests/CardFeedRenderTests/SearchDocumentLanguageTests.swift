import Testing
@testable import CardFeedRender

/// The `<html lang>` of a search document, as Pagefind reads it to choose the document's index.
@Suite struct SearchDocumentLanguageTests {
    @Test func theLanguageOfTheHTMLTagIsReadWhateverItsSpelling() {
        #expect(CardPages.htmlLanguage("<!DOCTYPE html>\n<html lang=\"de\">\n<body>") == "de")
        #expect(CardPages.htmlLanguage("<HTML data-x=\"1\" LANG = pt-BR class=x>") == "pt-BR")
        #expect(CardPages.htmlLanguage("<html lang='zh-Hant'>") == "zh-Hant")
        #expect(CardPages.htmlLanguage("<html xml:lang=\"en\" data-lang=\"fr\">") == nil)
        #expect(CardPages.htmlLanguage("<html>") == nil)
        #expect(CardPages.htmlLanguage("<body lang=\"de\">") == nil)
    }
}
