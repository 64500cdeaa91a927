import Foundation

/// Who the seeded users are, by index: a twentieth are guests, a tenth signed in with Apple (a
/// private-relay address, an `apple` identity, no password), the rest have an e-mail address
/// and the one password every seeded account shares (hashed once, bcrypt cost 10, and the hash
/// reused: the server verifies it like any other).
///
/// Ids are built from the index so that any row can name any user without a lookup. They are
/// spread evenly over the whole UUID space in index order (the seed appends to each primary
/// key instead of splitting pages at random, which would take hours here); the server's own
/// random ids land anywhere among them, as they would in a table grown by sign-ups.
enum SeedLayout {
    enum Kind { case guest, apple, password }

    /// The users the spread of ids is planned for (indexes past it still get unique ids).
    static let capacity = 1 << 24

    static func kind(_ index: Int) -> Kind {
        switch index % 20 {
        case 0: .guest
        case 1, 2: .apple
        default: .password
        }
    }

    static func email(_ index: Int) -> String { "user\(index)@example.com" }
    static func appleEmail(_ index: Int) -> String { "relay\(index)@privaterelay.appleid.com" }
    static func userID(_ index: Int) -> String { spreadUUID(index, of: capacity, salt: 0x7573_6572) }

    /// A random index below `users` of an account with a password.
    static func randomPasswordUser(below users: Int) -> Int {
        while true {
            let index = Int.random(in: 0..<users)
            if kind(index) == .password { return index }
        }
    }

    /// A UUID (version 4 layout) whose leading 64 bits grow with `index`: slot `index` of
    /// `count` equal slots, at a pseudo-random place within it.
    static func spreadUUID(_ index: Int, of count: Int, salt: UInt64) -> String {
        let slot = UInt64.max / UInt64(max(count, 1))
        let high = UInt64(index) &* slot &+ (mix(UInt64(index) ^ salt) % max(slot, 1))
        let low = mix(UInt64(index) &+ salt &* 0x9E37_79B9)
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        var characters = Array(hex)
        characters[12] = "4"
        characters[16] = ["8", "9", "a", "b"][Int(low >> 62)]
        let text = String(characters)
        return [
            text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4),
            text.dropFirst(20),
        ].joined(separator: "-")
    }

    /// SplitMix64's finaliser: a well-spread 64-bit hash.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
