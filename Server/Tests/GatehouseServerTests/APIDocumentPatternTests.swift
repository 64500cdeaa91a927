import Foundation
import GatehouseServerSupport
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 33: the character classes of `Server/openapi.yaml` are the server's own, so that
/// schemathesis with every check finds no request the document and the server judge apart. JSON
/// Schema patterns cannot name Unicode categories portably (`\p{…}` is not Python's, and the
/// document's validator reads patterns as Python does), so `VisibleText` lists its code points;
/// this test rebuilds that list from the Unicode tables the server runs with.
@Suite("API document patterns")
struct APIDocumentPatternTests {
    static let yaml = String(decoding: APIDocument.yaml, as: UTF8.self)

    /// The white space (Unicode `White_Space`) that addresses and names are trimmed of, as the
    /// document's patterns spell it.
    static let whiteSpaceClass = #"\t-\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000"#

    /// Whether a name may hold `scalar`: visible (``Unicode/Scalar/isInvisibleInText`` is false),
    /// or white space, which is trimmed around a name and refused inside it.
    static func isVisibleOrWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isInvisibleInText || scalar.properties.isWhitespace
    }

    /// The `pattern` of `VisibleText` as the document must spell it: a YAML double-quoted string
    /// over several lines, the class's code points escaped for the regex (`\\uXXXX`) in the Basic
    /// Multilingual Plane and for YAML (`\UXXXXXXXX`, read as the character itself) beyond it,
    /// which ECMAScript, Python and Rust regular expressions all read alike.
    static func visibleTextPattern() -> String {
        var ranges: [ClosedRange<UInt32>] = []
        var start: UInt32?
        for value in UInt32(0)...0x10FFFF {
            let included = Unicode.Scalar(value).map(isVisibleOrWhiteSpace) ?? false
            if included, start == nil { start = value }
            if !included, let first = start {
                ranges.append(first...(value - 1))
                start = nil
            }
        }
        if let first = start { ranges.append(first...0x10FFFF) }
        func escaped(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: true)
            return value <= 0xFFFF
                ? #"\\u"# + String(repeating: "0", count: 4 - hex.count) + hex
                : #"\U"# + String(repeating: "0", count: 8 - hex.count) + hex
        }
        var lines: [String] = []
        var line = ""
        for range in ranges {
            let token =
                range.count == 1
                ? escaped(range.lowerBound) : escaped(range.lowerBound) + "-" + escaped(range.upperBound)
            if line.count + token.count > 90 {
                lines.append(line)
                line = ""
            }
            line += token
        }
        lines.append(line)
        return (["      pattern: \"^[\\"] + lines.map { "        \($0)\\" } + ["        ]*$\""]).joined(separator: "\n")
    }

    @Test func visibleTextListsTheCodePointsTheServerTakesInANameAndNoOther() {
        let pattern = Self.visibleTextPattern()
        #expect(
            Self.yaml.contains("    VisibleText:\n") && Self.yaml.contains(pattern + "\n"),
            "VisibleText's pattern in Server/openapi.yaml is not this server's Unicode tables; it should be:\n\(pattern)"
        )
        // A few the rule names, as a check on the check.
        for visible in ["a", "é", "\u{301}", "😀", "\u{3000}", "\u{2028}", "\t"] {
            #expect(Self.isVisibleOrWhiteSpace(visible.unicodeScalars.first!), "\(visible.debugDescription)")
        }
        for hidden in ["\u{0}", "\u{7}", "\u{200B}", "\u{202E}", "\u{FEFF}", "\u{E000}", "\u{E0001}", "\u{378}"] {
            #expect(!Self.isVisibleOrWhiteSpace(hidden.unicodeScalars.first!), "\(hidden.debugDescription)")
        }
    }

    @Test func theWhiteSpaceClassIsUnicodesWhiteSpace() throws {
        var documented = Set<UInt32>()
        var scalars = Self.whiteSpaceClass.unicodeScalars[...]
        func next() -> UInt32? {
            guard let first = scalars.popFirst() else { return nil }
            guard first == "\\" else { return first.value }
            switch scalars.popFirst() {
            case "t": return 0x9
            case "r": return 0xD
            case "u":
                let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
                scalars = scalars.dropFirst(4)
                return UInt32(hex, radix: 16)
            default: return nil
            }
        }
        while let low = next() {
            if scalars.first == "-" {
                scalars = scalars.dropFirst()
                documented.formUnion(low...(try #require(next())))
            } else {
                documented.insert(low)
            }
        }
        let whiteSpace = Set((UInt32(0)...0x10FFFF).filter { Unicode.Scalar($0)?.properties.isWhitespace == true })
        #expect(documented == whiteSpace)
        #expect(Self.yaml.components(separatedBy: Self.whiteSpaceClass).count > 4, "the document's patterns use it")
        #expect(" \u{3000}Ada\u{2028}\t".trimmingWhiteSpace == "Ada")
        #expect(
            "\u{200B}Ada".trimmingWhiteSpace == "\u{200B}Ada",
            "U+200B is no white space (Foundation's set on Linux has it)"
        )
    }
}
