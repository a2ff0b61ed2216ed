/// FNV-1a, 64 bits: a hash that is the same in every run and on every machine (unlike
/// `Hasher`), for ETags and for noticing that a calendar event's content changed.
public struct StableHash {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func mix(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }

    /// A text field followed by a separator, so ("ab", "c") and ("a", "bc") differ.
    package mutating func mix(field text: String) {
        mix(text.utf8)
        mix(CollectionOfOne(0x1F))
    }

    public var hex: String { String(value, radix: 16) }

    package static func hex(_ text: String) -> String {
        var hash = StableHash()
        hash.mix(text.utf8)
        return hash.hex
    }
}
