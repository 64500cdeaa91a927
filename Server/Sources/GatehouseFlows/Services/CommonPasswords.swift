import Foundation
import GatehouseServerSupport

/// A list of common passwords, lowercased, held as one sorted byte buffer and searched by
/// bisection.
///
/// The bundled list has 10,000 entries. As a `Set<String>` it kept a 256 KiB hash table and cost
/// about half a MiB of heap while it was built; here it is its own text (about 90 KiB) and one
/// offset per entry, built with one pass over the file's bytes.
struct CommonPasswords: Sendable {
    /// The entries, sorted by their bytes, each followed by a newline.
    private let bytes: [UInt8]
    /// Where each entry starts in `bytes`.
    private let starts: [UInt32]

    /// The list in `text`: one password per line, blank lines and lines starting with `#`
    /// skipped, surrounding spaces and tabs trimmed, entries lowercased and deduplicated.
    init(text: [UInt8]) {
        // Lowercase ASCII in one copy; a line with other characters is lowercased by Unicode's
        // rules (as the password it is compared with is) and appended after the text.
        var lowered = text.map(\.asciiLowercased)
        var lines: [(start: UInt32, end: UInt32)] = []
        var lineStart = 0
        for index in 0...text.count where index == text.count || text[index] == 0x0A || text[index] == 0x0D {
            if var line = Self.trimmed(lineStart..<index, in: text) {
                if text[line].contains(where: { $0 >= 0x80 }) {
                    let unicode = String(decoding: text[line], as: UTF8.self).lowercased().utf8
                    line = lowered.count..<(lowered.count + unicode.count)
                    lowered.append(contentsOf: unicode)
                }
                lines.append((UInt32(line.lowerBound), UInt32(line.upperBound)))
            }
            lineStart = index + 1
        }
        let slice = { (line: (start: UInt32, end: UInt32)) in lowered[Int(line.start)..<Int(line.end)] }
        lowered.withUnsafeBufferPointer { text in
            lines.sort { Self.precedes($0, $1, in: text) }
        }
        var bytes: [UInt8] = []
        var starts: [UInt32] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + Int($1.end - $1.start) + 1 })
        starts.reserveCapacity(lines.count)
        var previous: ArraySlice<UInt8>?
        for line in lines where previous.map({ !$0.elementsEqual(slice(line)) }) ?? true {
            previous = slice(line)
            starts.append(UInt32(bytes.count))
            bytes.append(contentsOf: slice(line))
            bytes.append(0x0A)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// How many distinct entries the list holds.
    var count: Int { starts.count }

    /// Whether `lowercased` (a password already lowercased) is on the list.
    func contains(_ lowercased: String) -> Bool {
        var lowercased = lowercased
        return lowercased.withUTF8 { key in
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                let entry = self.entry(at: middle)
                if entry.elementsEqual(key) { return true }
                if entry.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            return false
        }
    }

    private func entry(at index: Int) -> ArraySlice<UInt8> {
        let start = Int(starts[index])
        let end = index + 1 < starts.count ? Int(starts[index + 1]) - 1 : bytes.count - 1
        return bytes[start..<end]
    }

    /// Whether line `a` of `text` sorts before line `b`, byte by byte (a line that is the start
    /// of the other sorts first): what `lexicographicallyPrecedes` answers on their slices, by
    /// `memcmp`, which does not go through the generic collection code a debug build runs (that
    /// made this sort most of a debug server's start).
    private static func precedes(
        _ a: (start: UInt32, end: UInt32),
        _ b: (start: UInt32, end: UInt32),
        in text: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let lengthA = Int(a.end - a.start)
        let lengthB = Int(b.end - b.start)
        guard let base = text.baseAddress else { return false }
        let order = memcmp(base + Int(a.start), base + Int(b.start), min(lengthA, lengthB))
        return order != 0 ? order < 0 : lengthA < lengthB
    }

    /// The line at `range` of `text` without surrounding spaces and tabs; nil when that leaves
    /// nothing or a comment (`#`).
    private static func trimmed(_ range: Range<Int>, in text: [UInt8]) -> Range<Int>? {
        guard let first = text[range].firstIndex(where: { !$0.isSpaceOrTab }),
            let last = text[range].lastIndex(where: { !$0.isSpaceOrTab }),
            text[first] != UInt8(ascii: "#")
        else { return nil }
        return first..<(last + 1)
    }
}
