// platforms: iOS, tvOS, visionOS
// why: the same calls behind `#available`.
import AuthenticationServices

func text(_ bytes: ArraySlice<UInt8>) -> String? {
    if #available(iOS 18, tvOS 18, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(decoding: bytes, as: UTF8.self)
}

func stop(_ controller: ASAuthorizationController) {
    if #available(tvOS 18, *) {
        controller.cancel()
    }
}
