import Foundation
import Gatehouse
import GatehouseTesting
import Testing

/// The service labels its sign-ins with ``AuthService/Configuration/deviceName``.
@Suite("Device name")
@MainActor
struct DeviceNameTests {
    @Test func theDefaultIsThePlatformsAndSignInsCarryTheConfiguredName() async throws {
        #if os(Linux)
        #expect(SignInDevice.platformDefault?.isEmpty == false, "the host name")
        #endif
        #expect(AuthService.Configuration().deviceName == SignInDevice.platformDefault)
        let backend = InMemoryAuthBackend()
        let auth = AuthService(
            backend: backend,
            store: InMemorySessionStore(),
            configuration: .init(deviceName: "Ada's iPad")
        )
        try await auth.signInAnonymously()
        let listed = try await auth.sessions()
        #expect(listed.map(\.device) == ["Ada's iPad"] && listed.first?.isCurrent == true)
        #expect(listed.first?.methods == ["anonymous"])
        #expect(SignInDevice.name == nil, "the label is set only around the service's calls")
    }

    @Test func aMacIsLabelledMacNeverByItsHostNameWhichOftenNamesItsOwner() {
        #expect(SignInDevice.label(system: .mac, hostName: "Adas-MacBook-Pro", machine: "arm64") == "Mac")
        #expect(SignInDevice.label(system: .linux, hostName: "build-box", machine: "x86_64") == "build-box")
        #expect(SignInDevice.label(system: .device, hostName: "Adas-iPhone", machine: "iPhone15,2") == "iPhone15,2")
        #expect(SignInDevice.label(system: .device, hostName: "x", machine: "") == nil)
        #if os(macOS) || targetEnvironment(macCatalyst)
        #expect(SignInDevice.platformDefault == "Mac")
        #endif
    }
}
