import Testing

@testable import CardFeedServe

/// Which requests `serve` takes as addressed to itself (DNS rebinding), and where it listens.
@Suite struct HostPolicyTests {
    func policy(_ host: String, port: UInt16 = 4000) throws -> HostPolicy {
        HostPolicy(address: try ListenAddress(host: host, port: port), port: port)
    }

    @Test func loopbackNamesWithTheirPortAreAccepted() throws {
        let policy = try policy("127.0.0.1")
        for host in ["127.0.0.1:4000", "localhost:4000", "LOCALHOST:4000", "[::1]:4000", "[0:0:0:0:0:0:0:1]:4000", "[::ffff:127.0.0.1]:4000"] {
            #expect(policy.accepts(host: host), "\(host)")
        }
    }

    @Test func otherNamesPortsAndSpellingsAreRefused() throws {
        let policy = try policy("127.0.0.1")
        for host in ["evil.example:4000", "evil.example", "127.0.0.1", "127.0.0.1:4001", "localhost", "localhost.:4000",
                     "127.0.0.1.nip.io:4000", "::1:4000", "[::1:4000", "[evil.example]:4000", "127.0.0.1:+4000", "127.0.0.1:04000x",
                     "127.0.0.1:", "", ":4000", "192.168.1.5:4000", "0.0.0.0:4000", "127.0.0.1:4000@evil.example"] {
            #expect(!policy.accepts(host: host), "\(host)")
        }
        #expect(try self.policy("127.0.0.1", port: 80).accepts(host: "localhost"), "port 80 may be left out")
    }

    @Test func theHostGivenIsAcceptedAndAWildcardAcceptsAnyAddressButNoName() throws {
        let lan = try policy("192.168.1.5")
        #expect(lan.accepts(host: "192.168.1.5:4000") && lan.accepts(host: "localhost:4000"))
        #expect(!lan.accepts(host: "192.168.1.6:4000"))
        let everywhere = try policy("::")
        #expect(everywhere.accepts(host: "192.168.1.6:4000") && everywhere.accepts(host: "[fe80::1]:4000"))
        #expect(!everywhere.accepts(host: "rebind.example:4000"))
    }

    @Test func originMustBeTheSameAsTheHost() throws {
        let policy = try policy("127.0.0.1")
        #expect(policy.accepts(origin: "http://127.0.0.1:4000", host: "127.0.0.1:4000"))
        #expect(policy.accepts(origin: "http://LOCALHOST:4000", host: "localhost:4000"))
        for origin in ["null", "http://evil.example", "https://127.0.0.1:4000", "http://localhost:4000", "http://127.0.0.1:4000/", ""] {
            #expect(!policy.accepts(origin: origin, host: "127.0.0.1:4000"), "\(origin)")
        }
    }

    @Test func pagesOfThisMachineMayReadThePlacementsFilesAndNothingElse() throws {
        let policy = try policy("127.0.0.1")
        let files = ["/embed/home-hero.json", "/embed/cardfeed-embed.css", "/embed/home-hero/", "/de/embed/home-hero.json?v=2", "/embed/x.json#top"]
        let pages = ["http://127.0.0.1:8080", "http://localhost:3000", "https://localhost:5173", "http://shop.localhost:8080", "http://[::1]:8000", "http://127.0.0.2:9000", "HTTP://LOCALHOST:1"]
        for file in files {
            for page in pages { #expect(policy.sharesPlacements(target: file, with: page), "\(page) \(file)") }
            for page in ["https://evil.example", "http://192.168.1.5:8080", "http://127.0.0.1.nip.io:8080", "null", "", "file://", "http://localhost.evil.example", "ftp://localhost:21"] {
                #expect(!policy.sharesPlacements(target: file, with: page), "\(page) \(file)")
            }
        }
        // Nothing but the placements' files, and no path that leaves their folder.
        for target in ["/", "/index.html", "/cards/card-x.html", "/_cardfeed/events", "/embed", "/embed/../index.html", "/embed/%2e%2e/index.html",
                       "/de/news/embed/x.json", "/assets/embed.css", "//embed/x.json"] {
            #expect(!policy.sharesPlacements(target: target, with: "http://localhost:3000"), "\(target)")
        }
    }

    @Test("every spelling of the any address listens everywhere", arguments: [
        "0.0.0.0", "::", "::0", "[::]", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "[::ffff:0:0]", "0000::0000", "::0.0.0.0",
    ])
    func everywhere(_ host: String) throws {
        let address = try ListenAddress(host: host, port: 4000)
        #expect(address.isEverywhere && !address.isLoopback)
        #expect(address.url() == (address.family == .ip4 || host.contains("ffff") ? "http://127.0.0.1:4000/" : "http://[::1]:4000/"))
    }

    @Test func addressesAreSpelledCanonically() throws {
        #expect(try ListenAddress(host: "::0", port: 1).host == "::")
        #expect(try ListenAddress(host: "[0:0:0:0:0:0:0:1]", port: 1).isLoopback)
        #expect(try ListenAddress(host: "::ffff:127.0.0.1", port: 1).isLoopback)
        #expect(try !ListenAddress(host: "192.168.1.5", port: 1).isEverywhere)
        for text in ["0", "0x0", "00", "0.0", "127.1", "localhost.", "::ffff:0.0.0.0%eth0"] {
            #expect(throws: ListenAddress.Invalid.self, "\(text)") { try ListenAddress(host: text, port: 1) }
        }
    }
}
