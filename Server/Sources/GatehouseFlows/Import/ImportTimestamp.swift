import Foundation

/// Times as the exports write them: ISO 8601 (`2024-01-15T10:30:00.123Z`), PostgreSQL's text
/// (`2024-01-15 10:30:00.123456+00`, any number of fraction digits, zone `Z`, `±HH`, `±HH:MM`
/// or `±HHMM`), or a count of milliseconds since 1970 (Firebase).
enum ImportTimestamp {
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isNumber), let milliseconds = Double(text) {
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19])
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
        }
        var offset = 0
        if index < bytes.count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") {
                index += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                let digits = bytes[(index + 1)...].filter { $0 != UInt8(ascii: ":") }
                guard digits.count == 2 || digits.count == 4, let hours = number(digits.prefix(2)) else { return nil }
                let minutes = digits.count == 4 ? number(digits.suffix(2)) ?? 0 : 0
                offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
                index = bytes.count
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components) else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
        Int(String(decoding: digits, as: UTF8.self))
    }
}
