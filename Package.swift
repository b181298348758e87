// swift-tools-version:6.0
// fpmod: driver, template store and door-lock service for UART fingerprint modules
// (Grow R30x/R50x, ZhianTec ZFM, SynoChip AS608 and clones). Only the toolchain's own
// modules and Debian C libraries (through system-library targets) are used.
import PackageDescription

// The extractor and the matcher are optimised in debug builds too: a test that extracts a few
// hundred real impressions would take minutes unoptimised, and these loops are what they test.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "fpmod",
    products: [
        .executable(name: "fpmod", targets: ["fpmod"]),
        .library(name: "FingerprintProtocol", targets: ["FingerprintProtocol"]),
        .library(name: "FingerprintModule", targets: ["FingerprintModule"]),
    ],
    targets: [
        // Debian C libraries.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // The MQTT client of the Home Assistant bridge (Eclipse Mosquitto's libmosquitto).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // PNG files of fingerprint images (the simulated image sensor, the matcher's test prints).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libevdev: keypads on the Linux input subsystem, and uinput's virtual keypads.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // libnfc: NFC card readers (PN532 on UART, I2C or SPI; PN533 and ACR122 on USB).
        .systemLibrary(name: "CNfc", pkgConfig: "libnfc", providers: [.apt(["libnfc-dev"])]),
        // libfreefare: MIFARE DESFire commands and secure messaging over libnfc (fpmod's secure cards).
        .systemLibrary(name: "CFreefare", pkgConfig: "libfreefare", providers: [.apt(["libfreefare-dev"])]),
        // OpenSSL's libcrypto (EVP): AES, DES and randomness for DESFire's key diversification and
        // the simulated card.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libfprint's NBIS (mindtct + bozorth3): the host-side matcher of image sensors. No pkgConfig:
        // its GLib flags draw a SwiftPM warning (see Sources/CLibfprint/shim.h).
        .systemLibrary(name: "CLibfprint", providers: [.apt(["libfprint-2-dev"])]),
        // GNU libmicrohttpd: the web console's HTTP server (TLS through GnuTLS, limits, timeouts).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // GnuTLS's X.509 API: the console's self-signed certificate and its SHA-256 fingerprint.
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        // libpq: the fleet hub's client of PostgreSQL (the server is Debian's postgresql).
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libcurl (GnuTLS flavour): a door's HTTPS client of its fleet hub.
        // No pkgConfig: Debian 13's libcurl.pc adds "-isystem /usr/include/mit-krb5", a flag SwiftPM
        // refuses with a warning; the headers are on the multiarch include path anyway.
        .systemLibrary(name: "CLibcurl", providers: [.apt(["libcurl4-gnutls-dev"])]),
        // libgpiod 1.x or 2.x behind one C interface: the side matching the <gpiod.h> this
        // build finds is compiled (Debian 12: v1, Debian 13: v2), so no flag is needed.
        .target(name: "CLibgpiod", dependencies: ["CGPIOD"]),
        // libfreefare's DESFire commands wait for ever on libnfc (timeout 0); this bounds them for the
        // whole process by taking the place of nfc_initiator_transceive_bytes (see NFCTimeout.c).
        .target(name: "CNFCTimeout", dependencies: ["CNfc"]),
        // Thin C shims for libc calls Swift cannot see through Glibc (posix_openpt & co.).
        .target(name: "CShims"),
        // libmicrohttpd's variadic calls (start, daemon and connection info) with fixed arguments for Swift.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),
        // The Linux spidev ioctls (SPI_IOC_MESSAGE & co. are macros Swift cannot import).
        .target(name: "CSpidev"),

        // Pure logic.
        .target(name: "FingerprintProtocol"),
        .target(name: "AccessPolicy"),
        // User text made safe to show on a terminal or in a log: controls and bidi overrides escaped visibly.
        .target(name: "PrintableText"),
        // JSON written by hand: stable key order, exact escaping, no Foundation encoder quirks.
        .target(name: "JSONValue", dependencies: ["PrintableText"]),
        // Grey fingerprint images: PNG files, sensor-size crops, rotation, noise, coverage.
        .target(name: "Imaging", dependencies: ["CPNG"]),
        .target(name: "ArgumentParsing", dependencies: ["JSONValue", "PrintableText"]),
        // A pure Wiegand codec (frames, parity, keypad bursts); the GPIO reader and panel output come with issue 24's wiring.
        .target(name: "Wiegand"),
        // The PN532 NFC controller's host-interface frames (normal, extended, ACK, NACK, error) and
        // a resyncing decoder, command and status codes: pure, no I/O.
        .target(name: "PN532"),
        // MIFARE DESFire EV1's cryptography over libcrypto (CBC, CMAC with a chained IV, CRC32, NXP
        // AN10922 key diversification) and its status and command codes: no I/O.
        .target(name: "DESFire", dependencies: ["CCrypto"]),

        // I/O layers.
        // Posix: thin typed wrappers over file descriptors, poll, sockets, signals, clocks.
        .target(name: "Posix", dependencies: ["CShims"]),
        // The byte stream the driver talks to, apart from any device (termios, spidev, memory).
        .target(name: "Transport"),
        .target(name: "SerialPort", dependencies: ["Posix", "CShims", "Transport"]),
        .target(name: "GPIO", dependencies: ["CLibgpiod", "Posix"]),
        // SPI through spidev: mode, speed, full-duplex multi-segment messages.
        .target(name: "SPI", dependencies: ["CSpidev", "Posix"]),
        // Bare image sensors (FPC1020 over SPI, IRQ and reset on GPIO) that leave matching to the host.
        .target(name: "ImageSensor", dependencies: ["SPI", "GPIO", "Posix", "Imaging"]),
        // A simulated FPC1020: PNG files or generated fingers, driven like the simulated module.
        .target(name: "ImageSensorSimulator", dependencies: ["ImageSensor", "Imaging", "Posix"]),
        // An MQTT client over libmosquitto, driven from the owner's poll loop.
        .target(name: "MQTT", dependencies: ["CMosquitto", "Posix"]),
        .target(name: "FingerprintModule", dependencies: ["FingerprintProtocol", "Transport", "SerialPort", "Posix"]),
        .target(name: "ModuleSimulator", dependencies: ["FingerprintProtocol", "SerialPort", "Posix"]),
        .target(name: "TemplateStore", dependencies: ["AccessPolicy", "CSQLite", "CSodium", "Posix", "PrintableText"]),
        // Minutiae, the print's area and a quality score from one grey image: pure Swift, no I/O.
        .target(name: "MinutiaeExtraction", dependencies: ["Imaging"], swiftSettings: optimisedInDebug),
        // Enroll / identify / verify on the host for image sensors that do not match by themselves.
        .target(name: "HostMatching", dependencies: ["CLibfprint", "MinutiaeExtraction", "Imaging", "Posix"], swiftSettings: optimisedInDebug),
        // Admin operations that keep the store and the module in step: enroll, delete, sync,
        // backup/restore, pair, reconcile. Used by the CLI and by the service's control socket.
        .target(name: "Administration", dependencies: [
            "AccessPolicy", "FingerprintProtocol", "FingerprintModule", "TemplateStore", "Posix", "PrintableText",
        ]),
        // An image sensor behind the one reader interface: capture on the sensor, extraction and
        // matching on the host, templates in the store.
        .target(name: "HostReader", dependencies: [
            "Administration", "ImageSensor", "HostMatching", "MinutiaeExtraction", "Imaging", "TemplateStore", "FingerprintModule",
            "FingerprintProtocol", "Posix", "PrintableText",
        ]),
        // A PIN typed on a door keypad, as pure logic: the kernel's key codes, the entry (digits,
        // submit, clear, pause, bounds) and its secret; the evdev reader that feeds it is apart.
        .target(name: "Keypad"),
        // The keypad on the input subsystem (evdev: USB keypads, matrix-keypad and gpio-keys
        // overlays): finding, grabbing and reading it, uinput's virtual keypad, the bring-up watch.
        // A Wiegand reader on two GPIO inputs: libgpiod's timestamped edges into the Wiegand codec.
        .target(name: "WiegandInput", dependencies: ["Wiegand", "GPIO", "Posix"]),
        .target(name: "WiegandOutput", dependencies: ["Wiegand", "GPIO", "Posix"]),
        .target(name: "KeypadInput", dependencies: ["CEvdev", "Keypad", "Posix", "PrintableText"]),
        // NFC cards through libnfc (`CNfc`): a reader opened by connstring, a card's UID and type
        // read with a deadline, typed errors naming the libnfc call.
        .target(name: "NFCInput", dependencies: ["CNfc", "CFreefare", "CNFCTimeout", "DESFire", "Posix"]),
        // A simulated PN532 on a pseudo-terminal, answering what libnfc's pn532_uart driver sends,
        // with cards placed and faults set through a JSON-line control socket.
        .target(name: "PN532Simulator", dependencies: ["PN532", "DESFire", "SerialPort", "Posix", "JSONValue"]),
        .target(name: "DoorLock", dependencies: [
            "FingerprintProtocol", "FingerprintModule", "SerialPort", "Posix",
            "GPIO", "TemplateStore", "AccessPolicy", "Administration", "JSONValue", "MQTT", "PrintableText", "Keypad", "KeypadInput",
            "Wiegand", "WiegandInput", "WiegandOutput", "NFCInput",
        ]),

        // fpmod doctor's facts and checks as values (check, verdict, fix), apart from any terminal:
        // the CLI renders them, a web console or fleet hub can run them too.
        .target(name: "Diagnostics", dependencies: [
            "Administration", "TemplateStore", "HostMatching", "PrintableText", "GPIO", "Posix", "SerialPort", "SPI",
        ]),
        // Opening the reader the options name (a module, an SPI image sensor, a simulator) in one
        // place, from plain values: every front end (CLI, console, tests) opens readers through it.
        .target(name: "ReaderSessions", dependencies: [
            "Administration", "DoorLock", "Diagnostics", "FingerprintModule", "FingerprintProtocol", "ModuleSimulator",
            "SerialPort", "TemplateStore", "HostReader", "ImageSensor", "ImageSensorSimulator", "SPI", "GPIO", "Posix", "JSONValue",
        ]),
        // fpmod doctor's whole run as one call (facts, the module probed through ReaderSessions,
        // the checks judged), so the console's health page and the CLI run the same doctor.
        .target(name: "DoctorRun", dependencies: [
            "Diagnostics", "ReaderSessions", "Administration", "DoorLock", "FingerprintModule", "FingerprintProtocol",
            "GPIO", "KeypadInput", "NFCInput", "SerialPort", "TemplateStore",
        ]),
        // The running service's control socket as its clients reach it (the CLI's admin commands,
        // a console, a kiosk): where it listens, whether it serves this store and port, one request.
        .target(name: "ServiceClient", dependencies: ["AccessPolicy", "DoorLock", "Administration", "JSONValue", "Posix", "TemplateStore"]),
        // The lock service as `fpmod run` runs it, built from plain settings (config, GPIO chip, store,
        // the reader's connection, simulators and their control socket, options, reloads), so a console
        // or a test runs the very same service. Not in ReaderSessions: that opens a reader once for one
        // command, while the service needs a connection it reopens itself, plus GPIO, sockets and a store.
        .target(name: "ServiceAssembly", dependencies: [
            "DoorLock", "ReaderSessions", "Administration", "FingerprintProtocol", "GPIO", "HostReader", "ImageSensor",
            "ImageSensorSimulator", "ModuleSimulator", "Posix", "SPI", "TemplateStore", "DoorFleet", "FleetSync", "PrintableText",
        ]),
        // `fpmod demo`'s stage, script and latency table, its story told through a callback: a kiosk
        // or console can play the demo as the CLI does.
        .target(name: "Demo", dependencies: [
            "DoorLock", "Administration", "FingerprintModule", "FingerprintProtocol", "GPIO", "JSONValue", "ModuleSimulator",
            "Posix", "SerialPort", "TemplateStore",
        ]),
        // What kind of failure an error is (usage, data, unavailable, I/O, try later, permission,
        // config, denied), whichever layer raised it: the CLI's exit codes, a console's HTTP statuses.
        .target(name: "FailureKinds", dependencies: [
            "Administration", "Benchmarks", "FingerprintModule", "HostReader", "ImageSensor", "Keypad", "KeypadInput", "ModuleSimulator", "WiegandInput", "WiegandOutput", "Wiegand",
            "NFCInput", "PN532Simulator",
            "Provisioning", "ReaderSessions", "SerialPort", "ServiceAssembly", "ServiceClient", "TemplateStore", "UserPrompts", "HubStore",
        ]),
        // Every bench as a library: workloads, stage accounting, the targets they run on, and their
        // reports (text tables and JSON values); the CLI parses options and prints.
        .target(name: "Benchmarks", dependencies: [
            "ReaderSessions", "FingerprintModule", "FingerprintProtocol", "ModuleSimulator", "Administration", "HostMatching",
            "HostReader", "ImageSensor", "ImageSensorSimulator", "Imaging", "JSONValue", "MatcherAccuracy", "MinutiaeExtraction",
            "Posix", "SerialPort", "ServiceClient", "TemplateStore", "ConsoleAuth", "PrintableText",
        ]),
        // One way to ask a person (questions as data, secrets and their rules, finger steps) apart
        // from how: the CLI asks on a terminal, a console on a page, a kiosk on its screen. Its own
        // target rather than part of Provisioning because pin, backup, delete and enroll ask too.
        .target(name: "UserPrompts", dependencies: ["Administration", "TemplateStore"]),
        // fpmod setup's first run as a library: port discovery, board detection, its questions as
        // data and their checks, the config file; a console runs the same steps with its own prompts.
        .target(name: "Provisioning", dependencies: [
            "UserPrompts", "Administration", "DoorLock", "FingerprintModule", "FingerprintProtocol", "ModuleSimulator",
            "SerialPort", "TemplateStore", "GPIO", "Posix",
        ]),
        // An HTTP(S) server over libmicrohttpd: requests and responses as values, a handler on
        // libmicrohttpd's threads, streamed bodies (Server-Sent Events), TLS 1.2+ only, every size and
        // time bounded; and the self-signed certificate made with GnuTLS. Knows nothing of doors.
        .target(name: "ConsoleHTTP", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim", "CGnuTLS", "CZlib", "Posix"]),
        // The console's accounts, sessions, CSRF and Origin rules, setup code and API tokens: pure
        // rules with a clock, over the store's console tables.
        .target(name: "ConsoleAuth", dependencies: ["TemplateStore", "AccessPolicy", "CSodium", "Posix"]),
        // The web console and the kiosk lock screen: routes, pages (embedded assets), the JSON API
        // under /api/v1, SVG plots, live events; a front end over the store and the service's sockets.
        // The fleet hub's store in PostgreSQL: the change log doors follow, every door's events.
        .target(name: "HubStore", dependencies: ["AccessPolicy", "CLibpq", "FleetTrust", "JSONValue", "TemplateStore"]),
        // The fleet's own certificate authority (GnuTLS): the hub's server certificate, each door's client certificate.
        .target(name: "FleetTrust", dependencies: ["CGnuTLS", "Posix"]),
        // The hub's HTTPS API for doors (mutual TLS) and its own files (the fleet's authority).
        .target(name: "HubServer", dependencies: ["ConsoleHTTP", "FleetTrust", "HostMatching", "HubStore", "JSONValue", "Posix", "TemplateStore"]),
        // The door's side of the fleet: the hub's changes applied to the door's store, all or nothing.
        .target(name: "HubReplica", dependencies: ["AccessPolicy", "HostMatching", "HubStore", "JSONValue", "TemplateStore"]),
        // The door's link to its hub: joining (key pair, pinned authority, certificate) and the
        // HTTPS client (libcurl) it speaks through.
        .target(name: "DoorFleet", dependencies: ["CLibcurl", "FleetTrust", "JSONValue", "Posix", "PrintableText"]),
        // A joined door following its hub: changes pulled and applied, its events uploaded, on a
        // thread of the service (FleetFollower) or once (fpmod fleet sync).
        .target(name: "FleetSync", dependencies: ["DoorFleet", "HubReplica", "HubStore", "JSONValue", "TemplateStore"]),
        .target(name: "WebConsole", dependencies: [
            "ConsoleHTTP", "ConsoleAuth", "TemplateStore", "ServiceClient", "DoorLock", "DoctorRun", "Diagnostics",
            "Administration", "AccessPolicy", "JSONValue", "Posix", "PrintableText", "HubStore", "HubServer",
        ]),
        // The FVC protocol and its error rates (fpmod bench accuracy): pure, apart from reading PNGs.
        .target(name: "MatcherAccuracy", dependencies: ["Imaging"]),
        // Speed and score calibration of the host matcher (tools/bench-host-match.sh, tools/calibrate-host-matcher.sh).
        .executableTarget(name: "HostMatchBench", dependencies: ["HostMatching", "MinutiaeExtraction", "Imaging"]),
        // The fleet's costs: a door's replica apply for 10,000 users (the hub's side to come).
        .executableTarget(name: "FleetBench", dependencies: ["DoorFleet", "FleetSync", "HubReplica", "HubStore", "JSONValue", "Posix", "TemplateStore"]),
        .executableTarget(name: "fpmod", dependencies: [
            "ArgumentParsing", "FingerprintProtocol", "FingerprintModule", "ModuleSimulator",
            "SerialPort", "Posix", "GPIO", "TemplateStore", "AccessPolicy", "Administration", "DoorLock",
            "SPI", "ImageSensor", "ImageSensorSimulator", "Imaging", "HostMatching", "HostReader", "PrintableText",
            "MatcherAccuracy", "MinutiaeExtraction", "Diagnostics", "ReaderSessions", "Benchmarks", "ServiceClient", "DoctorRun", "ServiceAssembly", "Demo", "Provisioning", "UserPrompts", "FailureKinds",
            "WebConsole", "ConsoleHTTP", "ConsoleAuth", "Keypad", "KeypadInput", "Wiegand", "WiegandInput", "WiegandOutput", "NFCInput", "PN532Simulator",
            "HubStore", "HubServer", "JSONValue", "DoorFleet",
        ]),

        .testTarget(name: "FingerprintProtocolTests", dependencies: ["FingerprintProtocol", "Imaging"]),
        .testTarget(name: "AccessPolicyTests", dependencies: ["AccessPolicy"]),
        .testTarget(name: "WiegandTests", dependencies: ["Wiegand", "Imaging"]),
        .testTarget(name: "PN532Tests", dependencies: ["PN532"]),
        .testTarget(name: "DESFireTests", dependencies: ["DESFire", "PN532Simulator"]),
        .testTarget(name: "NFCInputTests", dependencies: ["NFCInput", "PN532Simulator", "PN532", "Posix", "TestSupport", "CFreefare", "CNfc", "DESFire"]),
        .testTarget(name: "WiegandInputTests", dependencies: ["WiegandInput", "Wiegand", "GPIO"]),
        .testTarget(name: "WiegandOutputTests", dependencies: ["WiegandOutput", "Wiegand", "GPIO"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        .testTarget(name: "JSONValueTests", dependencies: ["JSONValue"]),
        .testTarget(name: "PrintableTextTests", dependencies: ["PrintableText"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "SerialPortTests", dependencies: ["SerialPort", "Transport", "Posix"]),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO"]),
        .testTarget(name: "ImageSensorTests", dependencies: ["ImageSensor", "Imaging", "SPI", "GPIO"]),
        .testTarget(name: "ImageSensorSimulatorTests", dependencies: ["TestSupport", "ImageSensorSimulator", "ImageSensor", "Imaging", "HostMatching", "Posix"]),
        // A real mosquitto broker for the tests (a library of test code, not shipped).
        // What several test targets share: expectThrows (Swift 6.0's #expect(throws:) returns no
        // error) and a scratch folder.
        .target(name: "TestSupport", dependencies: ["Imaging", "Posix"], path: "Tests/TestSupport"),
        .target(name: "MQTTTestSupport", dependencies: ["MQTT", "Posix"], path: "Tests/MQTTTestSupport"),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "MQTTTestSupport", "Posix"]),
        .testTarget(name: "FingerprintModuleTests", dependencies: ["TestSupport", "FingerprintModule", "ModuleSimulator", "SerialPort", "FingerprintProtocol"]),
        .testTarget(name: "ModuleSimulatorTests", dependencies: ["ModuleSimulator", "SerialPort", "FingerprintProtocol"]),
        .testTarget(name: "TemplateStoreTests", dependencies: ["TemplateStore"]),
        .testTarget(name: "HubStoreTests", dependencies: ["HubStore", "FleetTrust", "JSONValue", "Posix", "TestSupport"]),
        .testTarget(name: "FleetTrustTests", dependencies: ["FleetTrust", "TestSupport"]),
        .testTarget(name: "FleetSyncTests", dependencies: ["FleetSync", "HubReplica", "HubStore", "JSONValue"]),
        .testTarget(name: "DoorFleetTests", dependencies: ["DoorFleet", "FleetTrust", "ConsoleHTTP", "TestSupport"]),
        .testTarget(name: "HubReplicaTests", dependencies: ["HubReplica", "HubStore", "TemplateStore", "AccessPolicy", "JSONValue", "TestSupport", "HostMatching"]),
        .testTarget(name: "ImagingTests", dependencies: ["TestSupport", "Imaging"]),
        .testTarget(name: "MatcherAccuracyTests", dependencies: ["MatcherAccuracy", "Imaging", "TestSupport"]),
        .testTarget(name: "HostMatchingTests", dependencies: ["TestSupport", "HostMatching", "MinutiaeExtraction", "Imaging"]),
        .testTarget(name: "AdministrationTests", dependencies: ["Administration", "ModuleSimulator", "FingerprintModule", "TemplateStore", "SerialPort", "FingerprintProtocol"]),
        .testTarget(name: "HostReaderTests", dependencies: ["TestSupport", 
            "HostReader", "ImageSensorSimulator", "Administration", "ImageSensor", "HostMatching", "Imaging", "TemplateStore",
            "FingerprintModule", "Posix",
        ]),
        .testTarget(name: "KeypadTests", dependencies: ["Keypad", "Imaging"]),
        .testTarget(name: "KeypadInputTests", dependencies: ["KeypadInput", "Keypad", "TestSupport"]),
        .testTarget(name: "DoorLockTests", dependencies: ["DoorLock", "JSONValue", "MQTT", "MQTTTestSupport", "GPIO", "AccessPolicy", "ModuleSimulator", "FingerprintModule", "TemplateStore", "Administration", "SerialPort", "Posix"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "TemplateStore", "HostMatching", "MinutiaeExtraction", "TestSupport"]),
        .testTarget(name: "ServiceClientTests", dependencies: [
            "ServiceClient", "Administration", "DoorLock", "GPIO", "JSONValue", "ModuleSimulator", "Posix", "TemplateStore", "TestSupport",
        ]),
        // A second front end built from the libraries alone (doctor, a bench, an enrollment), so
        // nothing a console needs can hide in the executable: it must not depend on "fpmod".
        .testTarget(name: "FrontEndHarnessTests", dependencies: [
            "DoctorRun", "Diagnostics", "Benchmarks", "ReaderSessions", "Administration", "TemplateStore", "JSONValue", "TestSupport",
        ]),
        .testTarget(name: "FailureKindsTests", dependencies: [
            "FailureKinds", "Administration", "FingerprintModule", "ReaderSessions", "SerialPort", "ServiceClient", "TemplateStore",
        ]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "FingerprintModule", "ModuleSimulator"]),
        .testTarget(name: "ReaderSessionsTests", dependencies: ["ReaderSessions", "Administration", "TemplateStore", "TestSupport"]),
        .testTarget(name: "ServiceAssemblyTests", dependencies: ["ServiceAssembly", "ReaderSessions", "DoorLock", "JSONValue", "Posix", "TestSupport"]),
        .testTarget(name: "ConsoleHTTPTests", dependencies: ["ConsoleHTTP", "FleetTrust", "Posix", "TestSupport"]),
        .testTarget(name: "ConsoleAuthTests", dependencies: ["ConsoleAuth", "TemplateStore", "AccessPolicy", "TestSupport"]),
        .testTarget(name: "WebConsoleTests", dependencies: [
            "WebConsole", "ConsoleHTTP", "ConsoleAuth", "TemplateStore", "JSONValue", "Posix", "TestSupport",
        ]),
        .testTarget(name: "DemoTests", dependencies: ["Demo", "DoorLock", "ModuleSimulator"]),
        .testTarget(name: "UserPromptsTests", dependencies: ["UserPrompts", "Administration", "TemplateStore"]),
        .testTarget(name: "ProvisioningTests", dependencies: [
            "Provisioning", "UserPrompts", "Administration", "DoorLock", "TemplateStore", "ModuleSimulator", "TestSupport",
        ]),
        .testTarget(name: "fpmodTests", dependencies: ["fpmod", "Diagnostics", "TestSupport", "MQTT", "MQTTTestSupport", "SerialPort", "Posix", "ImageSensorSimulator", "ImageSensor", "Imaging", "GPIO", "ArgumentParsing", "ReaderSessions", "Benchmarks", "HubStore", "HubReplica", "FleetTrust", "TemplateStore", "JSONValue", "DoorFleet", "FleetSync"]),
    ]
)
