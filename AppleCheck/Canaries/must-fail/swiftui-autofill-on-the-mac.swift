// platforms: Mac Catalyst, macOS
// expect: 'performAutoFillAssistedRequest' is unavailable in (Mac Catalyst|macOS)
// why: SwiftUI's AuthorizationController offers AutoFill on iOS and visionOS only.
import AuthenticationServices
import SwiftUI

@MainActor
func signIn(_ controller: AuthorizationController, _ request: ASAuthorizationRequest) async throws {
    _ = try await controller.performAutoFillAssistedRequest(request)
}
