import Foundation
import NIOCore
import Testing

@testable import gatehouse_server_benchmark

/// The stack's own bound for a refresh (`BareRefreshServer`) answers as many bytes as the
/// server's refresh answer, so that both pay the same to write it; the answer is JSON that
/// gives the session back.
@Suite("The bare refresh server's answer")
struct BareRefreshAnswerTests {
    @Test(arguments: [0, 120, 1_400])
    func theAnswerIsJSONOfTheRequestedLength(length: Int) throws {
        let session = UUID().uuidString.lowercased()
        let signature = String(repeating: "A", count: 86)
        let answer = BareRefreshServer.answer(session: session, signature: signature, length: length)
        let bytes = Data(answer.readableBytesView)
        let unpadded =
            #"{"refresh_token":""#.utf8.count + session.utf8.count + #"","signature":""#.utf8.count
            + signature.utf8.count + #"","padding":""}"#.utf8.count
        #expect(bytes.count == max(length, unpadded))
        let fields = try JSONDecoder().decode([String: String].self, from: bytes)
        #expect(fields["refresh_token"] == session)
        #expect(fields["signature"] == signature)
        #expect(fields["padding"]?.allSatisfy { $0 == "x" } == true)
    }
}
