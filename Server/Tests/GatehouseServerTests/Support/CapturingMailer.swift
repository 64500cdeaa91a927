import Foundation
import GatehouseFlows
import GatehouseServer

/// A mailer that keeps every message, so tests read codes from the bodies as a person reads
/// them from an inbox.
actor CapturingMailer: Mailer {
    private(set) var sent: [Mail] = []

    func send(_ mail: Mail) async throws {
        sent.append(mail)
    }

    /// The code of the newest message to an address.
    func lastCode(to address: String) -> String? {
        sent.last { $0.to == address.lowercased() }.flatMap { Self.code(in: $0.body) }
    }

    /// The six digits after "Your code is " in a body, or `nil`.
    static func code(in body: String) -> String? {
        guard let start = body.range(of: "Your code is ")?.upperBound else { return nil }
        let code = body[start...].prefix { $0.isASCII && $0.isNumber }
        return code.count == 6 ? String(code) : nil
    }
}
