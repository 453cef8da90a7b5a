import Testing

@testable import HTTPServer

/// The client's address behind proxies (issue 45): the walk from the right over `Forwarded` or
/// `X-Forwarded-For`, believed only from a trusted peer.
@Suite struct ClientAddressTests {
    let proxies = trusted("10.0.0.0/8, 192.0.2.1, 2001:db8:ffff::/48")

    func client(peer: String, _ fields: [(String, String)]) -> String {
        ClientAddress.resolve(peer: peer, headers: HTTPHeaders(fields), trusted: proxies)
    }

    @Test func fromAnUntrustedPeerTheHeadersChangeNothing() {
        #expect(client(peer: "203.0.113.9", [("X-Forwarded-For", "198.51.100.1")]) == "203.0.113.9")
        #expect(client(peer: "203.0.113.9", [("Forwarded", "for=198.51.100.1")]) == "203.0.113.9")
        let nobody = TrustedProxies()
        #expect(
            ClientAddress.resolve(
                peer: "10.0.0.1", headers: HTTPHeaders([("X-Forwarded-For", "198.51.100.1")]), trusted: nobody)
                == "10.0.0.1")
    }

    @Test func aTrustedPeerWithoutAHeaderIsTheClient() {
        #expect(client(peer: "10.1.2.3", []) == "10.1.2.3")
        #expect(client(peer: "10.1.2.3", [("X-Forwarded-For", "")]) == "10.1.2.3")
    }

    @Test func theFirstUntrustedHopFromTheRightIsTheClient() {
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "198.51.100.1")]) == "198.51.100.1")
        // A chain of trusted proxies (a load balancer, then an ingress) is skipped.
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "198.51.100.1, 10.9.9.9, 192.0.2.1")]) == "198.51.100.1")
        // Repeated fields form one list, in order (RFC 9110 §5.3).
        #expect(
            client(peer: "10.0.0.1", [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-For", "10.2.2.2")])
                == "198.51.100.1")
    }

    /// A client that prepends addresses to the header its proxy appends to cannot pick its bucket.
    @Test func spoofedPrefixesAreIgnored() {
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "1.1.1.1, 10.0.0.7, 198.51.100.1")]) == "198.51.100.1")
        #expect(
            client(peer: "10.0.0.1", [("Forwarded", "for=1.1.1.1, for=198.51.100.1;proto=https")]) == "198.51.100.1")
    }

    @Test func forwardedWinsOverXForwardedFor() {
        let fields = [("X-Forwarded-For", "198.51.100.1"), ("Forwarded", "for=198.51.100.2")]
        #expect(client(peer: "10.0.0.1", fields) == "198.51.100.2")
    }

    @Test func forwardedNodesInEveryForm() {
        #expect(client(peer: "10.0.0.1", [("Forwarded", "for=198.51.100.3:4711")]) == "198.51.100.3")
        #expect(client(peer: "10.0.0.1", [("Forwarded", #"for="[2001:DB8:cafe::17]:4711""#)]) == "2001:db8:cafe::17")
        #expect(client(peer: "10.0.0.1", [("Forwarded", #"for="[2001:db8:cafe::17]""#)]) == "2001:db8:cafe::17")
        #expect(
            client(peer: "10.0.0.1", [("Forwarded", #"For="198.51.100.4";by=10.0.0.1;proto=http"#)]) == "198.51.100.4")
        // An obfuscated port still names its address (RFC 7239 §6.3).
        #expect(client(peer: "10.0.0.1", [("Forwarded", #"for="[2001:db8::1]:_p1""#)]) == "2001:db8::1")
        // Separators inside a quoted value do not split it.
        #expect(
            client(peer: "10.0.0.1", [("Forwarded", #"by="a,b;c", for=198.51.100.5;host="x,y""#)]) == "198.51.100.5")
        // An empty list element is no hop.
        #expect(client(peer: "10.0.0.1", [("Forwarded", "for=198.51.100.6, , for=10.0.0.2")]) == "198.51.100.6")
    }

    @Test func ipv6ClientsAndProxies() {
        #expect(client(peer: "2001:db8:ffff::1", [("X-Forwarded-For", "2001:db8:1::5")]) == "2001:db8:1::5")
        #expect(
            client(peer: "2001:db8:ffff::1", [("X-Forwarded-For", "2001:db8:1::5, 2001:db8:ffff:1::9")])
                == "2001:db8:1::5")
        // A mapped IPv4 peer is the IPv4 address it maps.
        #expect(client(peer: "::ffff:10.0.0.1", [("X-Forwarded-For", "198.51.100.7")]) == "198.51.100.7")
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "::ffff:198.51.100.8")]) == "198.51.100.8")
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "[2001:db8::8]:443")]) == "2001:db8::8")
    }

    /// What names nobody ends the walk at the peer: never an error, never a guess past it.
    @Test func obfuscatedOrMalformedHopsFallBackToThePeer() {
        for value in [
            "unknown", "_hidden", "198.51.100.1, _hidden", "not an address", "198.51.100.1, 300.1.1.1",
            "198.51.100.1,2001:db8::zz", "198.51.100.1:99999x", "198.51.100.1, 198.51.100.2:",
        ] {
            #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", value)]) == "10.0.0.1", "\(value)")
        }
        for value in [
            "for=unknown", "for=_gazonk", #"for="[2001:db8::1"#, "for=198.51.100.1, by=10.0.0.2", "garbage",
            #"for="198.51.100.1"#, "for=[2001:db8::1]x", "for=\"[2001:db8::1]:\"", "for=198.51.100.1, nonsense",
        ] {
            #expect(client(peer: "10.0.0.1", [("Forwarded", value)]) == "10.0.0.1", "\(value)")
        }
    }

    /// When every hop is a trusted proxy, the leftmost one is the client.
    @Test func aChainOfOnlyTrustedHopsNamesItsLeftmost() {
        #expect(client(peer: "10.0.0.1", [("X-Forwarded-For", "10.3.3.3, 10.2.2.2")]) == "10.3.3.3")
    }

    @Test func trustedRangesParse() throws {
        #expect(trusted("").isEmpty)
        #expect(trusted(" , ").isEmpty)
        #expect(trusted("10.0.0.0/8,::1, 2001:db8::/32").text == "10.0.0.0/8,::1/128,2001:db8::/32")
        #expect(trusted("192.0.2.7").text == "192.0.2.7/32")
        #expect(trusted("0.0.0.0/0").contains(text: "203.0.113.1"))
        #expect(!trusted("0.0.0.0/0").contains(text: "2001:db8::1"))
        #expect(trusted("::/0").contains(text: "2001:db8::1"))
        #expect(trusted("10.0.0.0/8").contains(text: "::ffff:10.9.8.7"))
        #expect(!trusted("10.0.0.0/8").contains(text: "11.0.0.1"))
        #expect(!trusted("10.0.0.0/8").contains(text: "garbage"))
        for bad in [
            "10.0.0.1/8", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/-1", "10.0.0.0/+8", "example.com", "10.0.0.0/",
        ] {
            #expect(TrustedProxies.parse(bad) == .failure(.init(entry: bad)), "\(bad)")
        }
    }

    @Test func addressesParseAndPrint() {
        #expect(IPAddress("192.0.2.1")?.text == "192.0.2.1")
        #expect(IPAddress("2001:0DB8:0000::0001")?.text == "2001:db8::1")
        #expect(IPAddress("::ffff:192.0.2.1") == IPAddress("192.0.2.1"))
        for bad in ["", " 192.0.2.1", "192.0.2.1 ", "192.0.2", "1.2.3.4.5", "[::1]", "fe80::1%eth0", "::1:", "0x7f.1"] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }
}

private func trusted(_ text: String) -> TrustedProxies {
    (try? TrustedProxies.parse(text).get()) ?? TrustedProxies()
}
