// What `import Foundation` brings with it on Apple platforms: Foundation re-exports Darwin (through
// CoreFoundation's headers) and Dispatch, so a file that imports Foundation alone can call `open`,
// read `errno` or use `DispatchQueue` (Foundation.swiftinterface of the iOS 18 SDK:
// `@_exported import Dispatch`, `@_exported import CoreFoundation`, `@_exported import Foundation`).
// CoreFoundation's few types the SDK uses are declared in Bridging.swift (see README, compromises).
@_exported import Darwin
@_exported import Dispatch
