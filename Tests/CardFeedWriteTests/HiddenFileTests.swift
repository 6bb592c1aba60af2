import Testing
@testable import CardFeedWrite

/// Which paths of the output are hidden files, which every build keeps and its marker records.
@Suite struct HiddenFileTests {
    @Test func aNameThatStartsWithADotIsHiddenWhateverFolderItIsIn() {
        for path in [".nojekyll", ".well-known/security.txt", "cards/.htaccess", "a/b/.c", "."] {
            #expect(OutputHiddenFiles.isHidden(path), "\(path)")
        }
    }

    @Test func aDotElsewhereInANameIsNot() {
        for path in ["", "index.html", "cards/a.b.html", "a./b", "a/b.", "x.y/z.w", "/"] {
            #expect(!OutputHiddenFiles.isHidden(path), "\(path)")
        }
    }
}
