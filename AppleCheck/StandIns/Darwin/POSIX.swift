// The C library calls the SDK makes, as Swift imports them from the Darwin module of Apple's
// SDKs. C declarations are transcribed from Apple's open-source xnu headers (the SDK's
// usr/include/sys/*.h are generated from them; apple-oss-distributions/xnu, xnu-11417.101.15):
// their pointers are not nullability-annotated, so Swift imports them implicitly unwrapped (`!`).
// Swift imports C functions with discardable results, hence `@discardableResult` on each.
// Variadic `open` and the `errno` macro cannot be imported: Swift's Darwin overlay
// (swiftlang/swift stdlib/public/Platform/Platform.swift) declares them as below.

// usr/include/sys/_types/_mode_t.h (__uint16_t on Darwin; UInt32 on Linux),
// sys/_types/_off_t.h, sys/_types/_pid_t.h, sys/_types/_ssize_t.h, sys/_types/_size_t.h
public typealias mode_t = UInt16
public typealias off_t = Int64
public typealias pid_t = Int32

// swift stdlib/public/Platform/Platform.swift (Darwin overlay): `errno` is `*__error()` in C.
public var errno: Int32 {
    get { fatalError() }
    set { fatalError() }
}

// swift stdlib/public/Platform/Platform.swift (Darwin overlay): open(2) is variadic in C.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError() }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
    fatalError()
}

// usr/include/unistd.h
@discardableResult public func close(_: Int32) -> Int32 { fatalError() }
@discardableResult public func read(_: Int32, _: UnsafeMutableRawPointer!, _: Int) -> Int { fatalError() }
@discardableResult public func write(_ __fd: Int32, _ __buf: UnsafeRawPointer!, _ __nbyte: Int) -> Int { fatalError() }
@discardableResult public func fsync(_: Int32) -> Int32 { fatalError() }
@discardableResult public func unlink(_: UnsafePointer<CChar>!) -> Int32 { fatalError() }

// usr/include/sys/stat.h
@discardableResult public func mkdir(_: UnsafePointer<CChar>!, _: mode_t) -> Int32 { fatalError() }
@discardableResult public func chmod(_: UnsafePointer<CChar>!, _: mode_t) -> Int32 { fatalError() }
@discardableResult public func fchmod(_: Int32, _: mode_t) -> Int32 { fatalError() }

// usr/include/stdio.h
@discardableResult public func rename(_ __old: UnsafePointer<CChar>!, _ __new: UnsafePointer<CChar>!) -> Int32 {
    fatalError()
}

// usr/include/string.h
@discardableResult public func strerror(_ __errnum: Int32) -> UnsafeMutablePointer<CChar>! { fatalError() }

// xnu bsd/sys/fcntl.h: open(2) flags (Swift imports these macros as Int32)
public var O_RDONLY: Int32 { 0x0000 }
public var O_WRONLY: Int32 { 0x0001 }
public var O_RDWR: Int32 { 0x0002 }
public var O_CREAT: Int32 { 0x0000_0200 }
public var O_EXCL: Int32 { 0x0000_0800 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }

// xnu bsd/sys/fcntl.h: flock(2). (C also has a `struct flock` of the same name, for fcntl(2);
// Swift imports both, but a Swift module cannot declare both, and the SDK uses only the function.)
@discardableResult public func flock(_: Int32, _: Int32) -> Int32 { fatalError() }
public var LOCK_EX: Int32 { 0x02 }
public var LOCK_NB: Int32 { 0x04 }
public var LOCK_UN: Int32 { 0x08 }

// xnu bsd/sys/errno.h
public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var EINTR: Int32 { 4 }
public var EEXIST: Int32 { 17 }
public var EAGAIN: Int32 { 35 }
public var EWOULDBLOCK: Int32 { EAGAIN }

// xnu bsd/sys/utsname.h: _SYS_NAMELEN is 256; char arrays are imported as tuples.
public typealias _SysName = (
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
    CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar
)
// xnu bsd/sys/utsname.h: struct utsname (a C struct of Sendable fields, so Sendable as imported)
@frozen
public struct utsname: Sendable {
    public var sysname: _SysName
    public var nodename: _SysName
    public var release: _SysName
    public var version: _SysName
    public var machine: _SysName
    public init() { fatalError() }
}
// usr/include/sys/utsname.h: int uname(struct utsname *)
@discardableResult public func uname(_: UnsafeMutablePointer<utsname>!) -> Int32 { fatalError() }
