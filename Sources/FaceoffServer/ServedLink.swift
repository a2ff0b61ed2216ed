import Foundation

/// Where the feed server can be opened from: the base URL it listens at (a wildcard address
/// made into this machine's address on the network, since `0.0.0.0` opens nothing), and the
/// link a person opens, with the token, and whether it works from this machine only.
public struct ServedLink: Sendable, Equatable {
    /// `http://host:port/`: scripts add `calendars/NAME.ics` to it.
    public var base: String
    /// The index page with `?token=`: what to open on a phone.
    public var link: String
    /// The link points at a loopback address: no other device can open it.
    public var thisMachineOnly: Bool

    /// - Parameters:
    ///   - bound: the address the socket is bound to, `0.0.0.0:8766` or `127.0.0.1:8765`.
    ///   - lan: this machine's address on its network (`ServedLink.lanAddress()`).
    init(bound: String, host: String, token: String, publicURL: String, lan: String?) {
        var address = bound
        let port = bound.split(separator: ":").last.map(String.init) ?? ""
        if Self.isWildcard(host) { address = "\(lan ?? "127.0.0.1"):\(port)" }
        base = "http://\(address)/"
        var page = publicURL.isEmpty ? base : publicURL
        if !page.hasSuffix("/") { page += "/" }
        link = page + Self.tokenQuery(token)
        let linkHost = URLComponents(string: page)?.host ?? ""
        thisMachineOnly = Self.isLoopback(linkHost)
    }

    /// `?token=…`, the token kept whole through the query (only unreserved characters stay
    /// as they are), or nothing without a token.
    static func tokenQuery(_ token: String) -> String {
        guard !token.isEmpty else { return "" }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return "?token=\(token.addingPercentEncoding(withAllowedCharacters: unreserved) ?? token)"
    }

    static func isWildcard(_ host: String) -> Bool { ["0.0.0.0", "::", "[::]", ""].contains(host) }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// This machine's first IPv4 address on a network interface that is up and not the
    /// loopback: the one a phone on the same Wi-Fi reaches. Nil when it has none.
    public static func lanAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == UInt16(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard
                getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
                    == 0
            else { continue }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
