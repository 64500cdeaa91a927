import GatehouseStorage

/// CSV as PostgreSQL's `COPY … TO … WITH CSV HEADER` writes it: a header row, fields quoted
/// with `"` when they hold a comma, quote or line break (a quote doubled inside), and an
/// unquoted empty field for NULL (left out of the row, so it reads as absent).
enum CSVTable {
    static func rows(_ text: String) throws -> [[String: Any]] {
        var records: [[(String, quoted: Bool)]] = []
        var record: [(String, quoted: Bool)] = []
        var field = ""
        var quoted = false
        var inQuotes = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            if inQuotes {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        inQuotes = false
                        pending = following
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                inQuotes = true
                quoted = true
            case ",":
                record.append((field, quoted))
                field = ""
                quoted = false
            case "\r": continue
            case "\n":
                record.append((field, quoted))
                field = ""
                quoted = false
                records.append(record)
                record = []
            default: field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw ImportFileError("the CSV ends inside a quoted field") }
        if !field.isEmpty || quoted || !record.isEmpty {
            record.append((field, quoted))
            records.append(record)
        }
        guard let header = records.first?.map(\.0) else { return [] }
        return records.dropFirst().filter { !($0.count == 1 && $0[0].0.isEmpty && !$0[0].quoted) }.map { row in
            var fields: [String: Any] = [:]
            for (index, value) in row.enumerated() where index < header.count && (!value.0.isEmpty || value.quoted) {
                fields[header[index]] = value.0
            }
            return fields
        }
    }
}
