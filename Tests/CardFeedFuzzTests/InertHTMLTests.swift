import Testing

@testable import CardFeedFuzz

/// The fuzz target's HTML check must catch what it is there to catch, or fuzzing proves nothing.
@Suite struct InertHTMLTests {
    @Test("unsafe HTML is reported", arguments: [
        "<script>alert(1)</script>", "<script src=\"https://evil.test/x.js\" defer></script>", "<img src=\"x\" onerror=\"alert(1)\">",
        "<a href=\"javascript:alert(1)\">x</a>", "<a href=\"JAVA&#x09;SCRIPT:alert(1)\">x</a>",
        "<a href=\"\tjava\nscript:alert(1)\">x</a>", "<img src=\"data:text/html,x\" alt=\"\">", "<a href=\"vbscript:x\">x</a>",
        "<p style=\"color:red\">x</p>", "<iframe src=\"https://x.test\"></iframe>", "<svg onload=\"alert(1)\">",
        "<a href=\"https://x.test\" target=\"_blank\">x</a>", "<div class=\"x\" data-x=\"1\" formaction=\"javascript:x\">",
        "<img src=\"https://x.test/a.png\" srcset=\"javascript:x 2x\" alt=\"\">", "<meta http-equiv=\"refresh\" content=\"0;url=javascript:x\">",
    ])
    func unsafe(_ html: String) {
        #expect(!InertHTML.problems(html).isEmpty, "\(html)")
    }

    @Test func ourOwnMarkupIsInert() {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><base href="./"><script src="assets/cardfeed.js" defer></script></head>
            <body><!-- raw HTML omitted --><article class="card" id="card-x" data-card-id="&lt;script&gt;" data-unread>
            <a href="https://x.test/?a=1&amp;b=%22" target="_blank" rel="noopener">x &lt;script&gt;</a>
            <img src="data:image/png;base64,iVBO" alt="&quot; onerror=&quot;x" /> <a href="&amp;#106;avascript:x">relative</a>
            <a href="mailto:a@x.test">m</a><a href="myapp://open">app</a></article></body></html>
            """
        #expect(InertHTML.problems(html) == [])
    }
}
