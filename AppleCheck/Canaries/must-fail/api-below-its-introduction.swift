// platforms: iOS, visionOS
// expect: 'init\(validating:as:\)' is only available in (iOS 18\.0|visionOS 2\.0) or newer
// why: a standard-library API introduced after the deployment target (iOS 17, visionOS 1), used
// without `#available`; on visionOS the compiler infers it from iOS 18 through the SDK's version map.
func text(_ bytes: ArraySlice<UInt8>) -> String? {
    String(validating: bytes, as: UTF8.self)
}
