import Gatehouse
import Testing

/// Asserts that `body` fails with an `AuthError` of `code`; returns the error.
@discardableResult
func expectFailure<Value>(
    _ code: ErrorCode,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Value
) async -> AuthError? {
    do {
        _ = try await body()
        Issue.record(
            "expected \(code.rawValue), but it succeeded. \(comment?.rawValue ?? "")",
            sourceLocation: sourceLocation
        )
    } catch let error as AuthError {
        #expect(error.code == code, "\(comment?.rawValue ?? ""): \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A six-digit code that is not `code`.
func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

/// The password every contract account uses.
let contractPassword = "correct horse battery"
