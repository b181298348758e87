import CLibfprint
import Glibc
import Imaging
import Posix
import Synchronization

/// libfprint's virtual_image device, open in this process, and the socket that feeds it images.
///
/// libfprint exports NBIS (mindtct + bozorth3) only through devices; the virtual_image driver,
/// compiled into Debian's builds for libfprint's own tests, is a device whose "sensor" is a Unix
/// socket it listens on (path from `FP_VIRTUAL_IMAGE`, read when the context enumerates). We
/// connect to it and write each image as int32 width, int32 height (host byte order), then the
/// 8-bit pixels; the device extracts minutiae and enrolls, verifies or identifies with them.
///
/// Not thread-safe: reached only through `LibfprintSession.shared`'s lock (see `GLibLoop`).
final class LibfprintSession {
    /// The process's one session, made on first use. One, because the device list and the
    /// environment variable are process-wide, and GLib's default main context is too.
    private static let shared = Mutex<LibfprintSession?>(nil)

    /// Runs `body` with the session, making it first if needed, holding the process-wide lock.
    static func with<R: Sendable>(_ body: (LibfprintSession) throws(HostMatchingError) -> R) throws(HostMatchingError) -> R {
        try shared.withLock { (instance: inout LibfprintSession?) throws(HostMatchingError) -> R in
            if instance == nil { instance = try LibfprintSession() }
            return try body(instance!)
        }
    }

    static let operationSeconds = 60

    let device: OpaquePointer
    let enrollStages: Int
    let scores = BozorthScores()
    private let context: OpaquePointer
    private let feed: UnixConnection

    private init() throws(HostMatchingError) {
        // A private 0700 folder, so no other user can connect to the socket and feed it prints.
        var template = Array("/tmp/fpmod-nbis-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template) else { throw .socket(operation: "make its folder", errno: errno) }
        let socketPath = String(cString: directory) + "/virtual-image.socket"
        setenv("FP_VIRTUAL_IMAGE", socketPath, 1)
        scores.install()

        context = fp_context_new()
        let devices = fp_context_get_devices(context)!
        var found: OpaquePointer?
        var drivers: [String] = []
        for index in 0..<Int(devices.pointee.len) {
            let candidate = OpaquePointer(devices.pointee.pdata[index]!)
            let driver = String(cString: fp_device_get_driver(candidate))
            drivers.append(driver)
            if driver == "virtual_image" { found = candidate }
        }
        guard let found else { throw .virtualDeviceMissing(drivers: drivers) }
        device = found
        _ = g_object_ref(UnsafeMutableRawPointer(device))

        var error: UnsafeMutablePointer<GError>?
        guard fp_device_open_sync(device, nil, &error) != 0 else {
            throw .libfprint(operation: "open its virtual_image device", message: consume(error))
        }
        enrollStages = Int(fp_device_get_nr_enroll_stages(device))
        do {
            feed = try UnixConnection.connect(path: socketPath)
        } catch {
            throw .socket(operation: "connect to \(socketPath)", errno: error.rawValue)
        }
        // The device accepts the connection on its next main-context iteration.
        while GLibLoop.runPending() {}
        // Connected: the name is no longer needed, and without it nobody else can connect (the
        // listening socket stays open inside libfprint). Nothing is left behind in /tmp.
        unlink(socketPath)
        rmdir(String(cString: directory))
    }

    /// Writes one image to the device. Non-blocking: while the socket is full, the main context
    /// runs, which is what lets the device read (it reads on this same thread).
    func send(_ image: GreyImage) throws(HostMatchingError) {
        try Self.checkSize(of: image)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + image.pixels.count)
        withUnsafeBytes(of: Int32(image.width)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int32(image.height)) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: image.pixels)
        var offset = 0
        while offset < bytes.count {
            // send(2) with MSG_NOSIGNAL: a device that hung up is an error here, not a SIGPIPE.
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(feed.fileDescriptor.rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 { offset += sent; continue }
            let error = Errno.current
            if error == .interrupted { continue }
            guard error == .wouldBlock else { throw .socket(operation: "send an image", errno: error.rawValue) }
            if !GLibLoop.runPending() {
                _ = try? poll([(feed.fileDescriptor, .writable)], deadline: .now + .milliseconds(10))
            }
        }
    }

    /// The virtual device drops the connection on a header over 5000 pixels a side.
    static func checkSize(of image: GreyImage) throws(HostMatchingError) {
        let limit = 5000
        guard image.width <= limit, image.height <= limit else {
            throw .imageTooLarge(width: image.width, height: image.height, limit: limit)
        }
    }

    /// A print read back from template bytes; the caller unrefs it.
    func deserialize(_ template: HostTemplate, index: Int) throws(HostMatchingError) -> OpaquePointer {
        let payload: ArraySlice<UInt8>
        switch TemplateEnvelope.unwrap(template.bytes) {
        case .success(let bytes): payload = bytes
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
        var error: UnsafeMutablePointer<GError>?
        let print = payload.withUnsafeBufferPointer { fp_print_deserialize($0.baseAddress, $0.count, &error) }
        guard let print else { throw .unreadableTemplate(index: index, message: consume(error)) }
        return print
    }

    func serialize(_ print: OpaquePointer) throws(HostMatchingError) -> HostTemplate {
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error: UnsafeMutablePointer<GError>?
        guard fp_print_serialize(print, &data, &length, &error) != 0, let data else {
            throw .libfprint(operation: "serialize the enrolled print", message: consume(error))
        }
        defer { g_free(data) }
        return HostTemplate(bytes: TemplateEnvelope.wrap(Array(UnsafeBufferPointer(start: data, count: length))))
    }
}

