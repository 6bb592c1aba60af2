import Testing

@testable import CardFeedServe

/// The request guard's reading of request heads, however the bytes are split.
@Suite struct HeadScannerTests {
    func verdicts(_ chunks: [String]) -> [HeadScanner.Verdict] {
        var scanner = HeadScanner()
        return chunks.map { scanner.scan(Array($0.utf8)) }
    }

    @Test func wellFormedRequestsPassInAnyPieces() {
        let request = "GET /news/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"
        for split in 0..<request.utf8.count {
            let bytes = Array(request.utf8)
            var scanner = HeadScanner()
            #expect(scanner.scan(Array(bytes[..<split])) == .fine)
            #expect(scanner.scan(Array(bytes[split...])) == .fine)
            #expect(scanner.startedAt == nil, "the head is complete")
        }
        #expect(verdicts(["\r\n\r\nGET / HTTP/1.0\n\nHEAD /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\nHost: x\n\n"]) == [.fine], "blank lines, bare LF, pipelining")
        #expect(verdicts(["POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"]) == [.fine])
    }

    @Test func onlyWholeHeadsAreHandedOn() {
        var scanner = HeadScanner()
        #expect(scanner.scan(Array("\r\nGET / HTTP/1.1\r\nHost: x\r\n".utf8)) == .fine)
        #expect(scanner.takeReady().isEmpty)
        #expect(scanner.scan(Array("\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /c".utf8)) == .fine)
        #expect(String(decoding: scanner.takeReady(), as: UTF8.self) == "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(scanner.takeReady().isEmpty)
    }

    @Test("malformed request lines are refused", arguments: [
        "GARBAGE\r\n", "GET\r\n", "GET /\r\n", "GET / HTTP/2.0\r\n", "GET  / HTTP/1.1\r\n", "G(T / HTTP/1.1\r\n",
        "GET /a\u{1}b HTTP/1.1\r\n", "\u{16}\u{3}\u{1}\u{2}\u{0} hello\n", "GET / HTTP/1.1 extra\r\n",
    ])
    func malformed(_ line: String) {
        #expect(verdicts([line]).last.map { if case .refused(400, _, _) = $0 { true } else { false } } == true)
    }

    @Test func oversizedHeadsAndBodiesAreRefused() {
        var scanner = HeadScanner()
        #expect(scanner.scan(Array("GET / HTTP/1.1\r\nX-Big: ".utf8)) == .fine)
        var verdict = HeadScanner.Verdict.fine
        for _ in 0..<100 where verdict == .fine { verdict = scanner.scan([UInt8](repeating: 0x61, count: 1024)) }
        guard case .refused(431, _, _) = verdict else { Issue.record("\(verdict)"); return }
        for head in ["POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", "POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n"] {
            guard case .refused(413, _, _) = verdicts([head]).last! else { Issue.record("\(head) was not refused"); continue }
        }
    }

    @Test func theClockStartsWithTheFirstByteOfAHead() {
        var scanner = HeadScanner()
        #expect(scanner.scan(Array("\r\n".utf8)) == .fine && scanner.startedAt == nil)
        #expect(scanner.scan(Array("GET / HT".utf8)) == .fine && scanner.startedAt != nil)
        #expect(scanner.scan(Array("TP/1.1\r\nHost: x\r\n\r\n".utf8)) == .fine && scanner.startedAt == nil)
    }

    @Test func onlyRequestsAddressedToThisServerPassAndOnlyTheirLineHostAndConnectionAreHandedOn() throws {
        let policy = HostPolicy(address: try ListenAddress(host: "127.0.0.1", port: 4000), port: 4000)
        func verdict(_ head: String) -> (HeadScanner.Verdict, String) {
            var scanner = HeadScanner(policy: policy)
            let verdict = scanner.scan(Array(head.utf8))
            return (verdict, String(decoding: scanner.takeReady(), as: UTF8.self))
        }
        let good = verdict("GET /news/?a=1 HTTP/1.1\r\nHost: localhost:4000\r\nX-Big: \(String(repeating: "x", count: 50_000))\r\nOrigin: http://localhost:4000\r\nConnection: keep-alive, Upgrade\r\n\r\n")
        #expect(good == (.fine, "GET /news/?a=1 HTTP/1.1\r\nHost: localhost:4000\r\nConnection: keep-alive\r\n\r\n"))
        #expect(verdict("GET http://127.0.0.1:4000 HTTP/1.1\r\nHost: evil.example\r\n\r\n") == (.fine, "GET / HTTP/1.1\r\nHost: 127.0.0.1:4000\r\n\r\n"))
        #expect(verdict("GET / HTTP/1.0\r\n\r\n") == (.fine, "GET / HTTP/1.0\r\n\r\n"))
        let refusals: [(String, Int)] = [
            ("GET / HTTP/1.1\r\nHost: rebind.example:4000\r\n\r\n", 421),
            ("GET http://rebind.example:4000/ HTTP/1.1\r\nHost: 127.0.0.1:4000\r\n\r\n", 421),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nHost: evil.example\r\n\r\n", 400),
            ("GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nOrigin: http://evil.example\r\n\r\n", 403),
            ("GET /_cardfeed/events HTTP/1.1\r\nHost: 127.0.0.1:4000\r\nOrigin: null\r\n\r\n", 403),
            ("GET /\(String(repeating: "a", count: 3000)) HTTP/1.1\r\nHost: 127.0.0.1:4000\r\n\r\n", 414),
        ]
        for (head, status) in refusals {
            let (result, handed) = verdict(head)
            guard case .refused(status, _, let text) = result else { Issue.record("\(head.prefix(80)): \(result)"); continue }
            #expect(handed.isEmpty && !text.contains("\u{1B}"))
        }
    }
}
