import AccessPolicy
import FingerprintProtocol
import Foundation
import GPIO
import SerialPort

/// A configuration file that cannot be used: every problem, each starting with the key's path.
public struct LockConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the config came from (a path, or "configuration").
    public var source: String
    public var problems: [String]

    public init(source: String, problems: [String]) {
        self.source = source
        self.problems = problems
    }

    public var description: String {
        "\(source) has \(problems.count) problem\(problems.count == 1 ? "" : "s"); fix each and run `fpmod config check` again:\n"
            + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension LockConfig {
    static let topLevelKeys = ["board", "serialPort", "spiDevice", "baudRate", "address", "password", "family", "gpio", "touch",
                               "scanIntervalMs", "policy", "relayPulseSeconds", "events", "control", "hooks", "store", "leds", "mqtt",
                               "privacy", "library", "imageSensor", "keypad", "wiegand", "wiegandOut", "nfc", "access", "console", "fleet"]
    static let policyNumberKeys = ["relayPulseSeconds", "idleTimeoutSeconds", "backgroundTimeoutSeconds", "graceSeconds",
                                   "pinRequiredAfterHoursWithoutPin", "heldOpenSeconds", "forcedOpenExemptSeconds",
                                   "verificationValiditySeconds", "factorWindowSeconds"]
    static let policyBoolKeys = ["fingerprintUnlockEnabled", "pinRequiredAfterRestart", "pinRequiredAfterEnrolledSetChange",
                                 "relockOnDoorClose"]
    /// The same rates `--baud` accepts: 9600 × N, N = 1…12.
    static let baudRates = BaudRate.supported

    /// Reads the file at `path` (see `parse`).
    public static func load(path: String) throws(LockConfigError) -> LockConfig {
        let (config, problems) = loadPartially(path: path)
        guard let config, problems.isEmpty else { throw LockConfigError(source: path, problems: problems) }
        return config
    }

    /// Reads the file at `path` as far as it can (see `parsePartially`); a file that cannot be
    /// read is one problem saying why (missing, a directory, no permission).
    public static func loadPartially(path: String) -> (config: LockConfig?, problems: [String]) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard !isDirectory.boolValue else {
            let inside = (path as NSString).appendingPathComponent("config.json")
            let hint = FileManager.default.fileExists(atPath: inside) ? "; did you mean \(inside)?" : ", e.g. /etc/fpmod/config.json"
            return (nil, ["\(path) is a directory; give the config file itself (a JSON file)\(hint)"])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = exists ? "cannot be read (check its permissions)" : "does not exist"
            return (nil, ["\(path) \(reason); give another file with --config, or start from tools/config.example.json"])
        }
        return parsePartially(data, source: path)
    }

    /// Parses and checks a config; throws every problem found, each naming its key path.
    /// Checks that need the machine (the preset file, the GPIO chip) are in `problems(preset:chip:)`.
    public static func parse(_ data: Data, source: String = "configuration") throws(LockConfigError) -> LockConfig {
        let (config, problems) = parsePartially(data, source: source)
        guard let config, problems.isEmpty else { throw LockConfigError(source: source, problems: problems) }
        return config
    }

    /// Parses what it can: every problem found, each naming its key path, and the config with
    /// every key that was right (a bad key keeps its default), so the checks that need the
    /// board can still run and report theirs (`LockConfigCheck`). The config is nil only when
    /// the text is no JSON or its top level no object. Never use a config with problems.
    public static func parsePartially(_ data: Data, source: String = "configuration") -> (config: LockConfig?, problems: [String]) {
        let syntax = LockConfigJSONSyntax(data)
        if let error = syntax.syntaxError { return (nil, [error]) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            return (nil, ["(file): not valid JSON (\(error.localizedDescription)); check commas, quotes and braces"])
        }
        var reader = ConfigReader()
        for duplicate in syntax.duplicateKeys {
            reader.problem(String(duplicate.prefix { $0 != ":" }), String(duplicate.drop { $0 != ":" }.dropFirst(2)))
        }
        var config = LockConfig()
        guard let object = reader.object(root, "(top level)") else { return (nil, reader.problems) }
        config.read(object, &reader)
        do {
            let topLevelPulse = object["relayPulseSeconds"] != nil
            for problem in config.policy.validate(keyPath: "policy") {
                var fixed = topLevelPulse && problem.hasPrefix("policy.relayPulseSeconds:")
                    ? String(problem.dropFirst("policy.".count)) : problem
                // Show whole numbers as the user wrote them (301, not 301.0).
                if let range = fixed.range(of: #"\.0 is out of range"#, options: .regularExpression) {
                    fixed.replaceSubrange(range, with: " is out of range")
                }
                reader.problem(String(fixed.prefix { $0 != ":" }), String(fixed.drop { $0 != ":" }.dropFirst(2)))
            }
        }
        return (config, reader.problems)
    }

    private mutating func read(_ root: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(root, known: Self.topLevelKeys, at: "")
        if let v = root["board"] { board = r.string(v, "board") ?? board }
        if let v = root["serialPort"] { serialPort = r.string(v, "serialPort") }
        if let v = root["spiDevice"], let path = r.string(v, "spiDevice") {
            if path.hasPrefix("/dev/spidev") { spiDevice = path } else {
                r.problem("spiDevice", "'\(path)' is no spidev node; use /dev/spidevB.C, e.g. /dev/spidev0.0 (CE0 of SPI0)")
            }
        }
        if let v = root["baudRate"], let rate = r.integer(v, "baudRate") {
            if Self.baudRates.contains(rate) { baudRate = rate } else {
                r.problem("baudRate", "\(rate) is not a module baud rate; use one of \(Self.baudRates.map(String.init).joined(separator: ", "))")
            }
        }
        if let v = root["address"] { address = r.uint32(v, "address") }
        if let v = root["password"] { password = r.uint32(v, "password") }
        if let v = root["family"] {
            family = r.choice(v, "family", ModuleFamily.self, choices: ["r30x", "as608", "r50x", "synochip"])
        }
        if let v = root["gpio"], let object = r.object(v, "gpio") { readGPIO(object, &r) }
        if let v = root["touch"], let object = r.object(v, "touch") {
            r.rejectUnknownKeys(object, known: ["activeLow"], at: "touch")
            if let flag = object["activeLow"] { touchActiveLow = r.bool(flag, "touch.activeLow") }
        }
        if let v = root["scanIntervalMs"] {
            scanIntervalMs = r.integer(v, "scanIntervalMs", range: 50...5000, unit: " ms") ?? scanIntervalMs
        }
        if let v = root["policy"], let object = r.object(v, "policy") { readPolicy(object, &r) }
        if let v = root["relayPulseSeconds"], let seconds = r.number(v, "relayPulseSeconds") {
            if let nested = (root["policy"] as? [String: Any])?["relayPulseSeconds"] as? NSNumber, nested.doubleValue != seconds {
                r.problem("relayPulseSeconds", "differs from policy.relayPulseSeconds (\(nested)); set it in one place only")
            }
            policy.relayPulseSeconds = seconds
        }
        if let v = root["events"], let object = r.object(v, "events") {
            r.rejectUnknownKeys(object, known: ["socket"], at: "events")
            if let path = object["socket"] { eventsSocket = r.socketPath(path, "events.socket") }
        }
        if let v = root["control"], let object = r.object(v, "control") {
            r.rejectUnknownKeys(object, known: ["socket"], at: "control")
            if let path = object["socket"] { controlSocket = r.socketPath(path, "control.socket") }
        }
        if let v = root["hooks"], let object = r.object(v, "hooks") {
            r.rejectUnknownKeys(object, known: ["onUnlock", "onDeny", "onLockout", "onAlarm", "onDuress"], at: "hooks")
            if let x = object["onUnlock"] { hooks.onUnlock = r.argv(x, "hooks.onUnlock") }
            if let x = object["onDeny"] { hooks.onDeny = r.argv(x, "hooks.onDeny") }
            if let x = object["onLockout"] { hooks.onLockout = r.argv(x, "hooks.onLockout") }
            if let x = object["onAlarm"] { hooks.onAlarm = r.argv(x, "hooks.onAlarm") }
            if let x = object["onDuress"] { hooks.onDuress = r.argv(x, "hooks.onDuress") }
        }
        if let v = root["store"], let object = r.object(v, "store") {
            r.rejectUnknownKeys(object, known: ["database", "key"], at: "store")
            if let x = object["database"] { storeDatabase = r.string(x, "store.database") }
            if let x = object["key"] { storeKey = r.string(x, "store.key") }
        }
        if let v = root["leds"] { leds = r.choice(v, "leds", LEDKind.self, choices: LEDKind.allCases.map(\.rawValue)) }
        if let v = root["mqtt"], let object = r.object(v, "mqtt") { readMQTT(object, &r) }
        if let v = root["privacy"], let object = r.object(v, "privacy") { readPrivacy(object, &r) }
        if let v = root["imageSensor"], let object = r.object(v, "imageSensor") { readImageSensor(object, &r) }
        if let v = root["library"], let object = r.object(v, "library") { readLibrary(object, &r) }
        if let v = root["keypad"], let object = r.object(v, "keypad") { readKeypad(object, &r) }
        if let v = root["wiegand"], let object = r.object(v, "wiegand") { readWiegand(object, &r) }
        if let v = root["wiegandOut"], let object = r.object(v, "wiegandOut") { readWiegandOut(object, &r) }
        if let v = root["nfc"], let object = r.object(v, "nfc") { readNFC(object, &r) }
        if let v = root["access"], let object = r.object(v, "access") { readAccess(object, &r) }
        if let v = root["console"], let object = r.object(v, "console") { readConsole(object, &r) }
        if let v = root["fleet"], let object = r.object(v, "fleet") { readFleet(object, &r) }
        if policy.antiPassback != .off && access.exitReaders.isEmpty {
            r.problem("policy.antiPassback", "needs a reader inside the door: name it in access.exitReaders (e.g. [\"nfc\"]); with every reader an entry reader, each user could come in once")
        }
    }

    private mutating func readGPIO(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: ["chip", "lines"], at: "gpio")
        if let v = object["chip"] { gpio.chip = r.string(v, "gpio.chip") }
        guard let v = object["lines"], let lines = r.object(v, "gpio.lines") else { return }
        r.rejectUnknownKeys(lines, known: LineRole.allCases.map(\.rawValue), at: "gpio.lines")
        for role in LineRole.allCases {
            guard let value = lines[role.rawValue] else { continue }
            let path = "gpio.lines." + role.rawValue
            if value is NSNull {
                gpio.lines[role] = .some(nil)
                continue
            }
            guard let line = r.object(value, path) else { continue }
            r.rejectUnknownKeys(line, known: ["offset", "name", "activeLow", "bias", "debounceMs"], at: path)
            var override = LineOverride()
            if let x = line["offset"] { override.offset = r.integer(x, path + ".offset", range: 0...1023) }
            if let x = line["name"] { override.name = r.string(x, path + ".name") }
            if let x = line["activeLow"] { override.activeLow = r.bool(x, path + ".activeLow") }
            if let x = line["bias"] {
                override.bias = r.choice(x, path + ".bias", Bias.self, choices: Bias.allCases.map(\.rawValue))
                if override.bias != nil && role.isOutput {
                    r.problem(path + ".bias", "\(role.rawValue) is an output; bias applies to inputs only, remove it")
                }
            }
            if let x = line["debounceMs"] {
                // A contact bounces for a few ms; a debouncer much longer than that eats presses.
                override.debounceMilliseconds = r.integer(x, path + ".debounceMs", range: 0...100)
                if override.debounceMilliseconds != nil && role.isOutput {
                    r.problem(path + ".debounceMs", "\(role.rawValue) is an output; debouncing applies to inputs only, remove it")
                }
            }
            gpio.lines[role] = .some(override)
        }
    }

    private mutating func readPolicy(_ object: [String: Any], _ r: inout ConfigReader) {
        let known = ["mode", "verifyMode", "fingerprintLockout", "pinLockout", "cardLockout", "twoPersonSeconds", "antiPassback"]
            + Self.policyNumberKeys + Self.policyBoolKeys
        r.rejectUnknownKeys(object, known: known.sorted(), at: "policy")
        if let v = object["mode"] { policy.mode = r.choice(v, "policy.mode", PolicyConfig.Mode.self, choices: ["door", "kiosk"]) ?? policy.mode }
        if let v = object["verifyMode"] {
            policy.verifyMode = r.choice(v, "policy.verifyMode", VerifyMode.self, choices: VerifyMode.allCases.map(\.rawValue)) ?? policy.verifyMode
        }
        if let v = object["twoPersonSeconds"], let seconds = r.number(v, "policy.twoPersonSeconds") { policy.twoPersonSeconds = seconds }
        if let v = object["antiPassback"] {
            policy.antiPassback = r.choice(v, "policy.antiPassback", AntiPassbackMode.self,
                                           choices: ["off", "soft", "hard"]) ?? policy.antiPassback
        }
        let numbers: [(String, WritableKeyPath<PolicyConfig, Double>)] = [
            ("relayPulseSeconds", \.relayPulseSeconds), ("idleTimeoutSeconds", \.idleTimeoutSeconds),
            ("backgroundTimeoutSeconds", \.backgroundTimeoutSeconds), ("graceSeconds", \.graceSeconds),
            ("pinRequiredAfterHoursWithoutPin", \.pinRequiredAfterHoursWithoutPin), ("heldOpenSeconds", \.heldOpenSeconds),
            ("forcedOpenExemptSeconds", \.forcedOpenExemptSeconds), ("verificationValiditySeconds", \.verificationValiditySeconds),
            ("factorWindowSeconds", \.factorWindowSeconds),
        ]
        for (key, path) in numbers {
            if let v = object[key], let number = r.number(v, "policy." + key) { policy[keyPath: path] = number }
        }
        let flags: [(String, WritableKeyPath<PolicyConfig, Bool>)] = [
            ("fingerprintUnlockEnabled", \.fingerprintUnlockEnabled), ("pinRequiredAfterRestart", \.pinRequiredAfterRestart),
            ("pinRequiredAfterEnrolledSetChange", \.pinRequiredAfterEnrolledSetChange), ("relockOnDoorClose", \.relockOnDoorClose),
        ]
        for (key, path) in flags {
            if let v = object[key], let flag = r.bool(v, "policy." + key) { policy[keyPath: path] = flag }
        }
        for (key, path) in [("fingerprintLockout", \PolicyConfig.fingerprintLockout), ("pinLockout", \PolicyConfig.pinLockout),
                            ("cardLockout", \PolicyConfig.cardLockout)] {
            guard let v = object[key], let thresholds = r.object(v, "policy." + key) else { continue }
            let base = "policy." + key
            r.rejectUnknownKeys(thresholds, known: ["failuresPerTimedLockout", "timedLockoutSeconds", "failuresForPermanentLockout"], at: base)
            if let x = thresholds["failuresPerTimedLockout"], let n = r.integer(x, base + ".failuresPerTimedLockout") {
                policy[keyPath: path].failuresPerTimedLockout = n
            }
            if let x = thresholds["timedLockoutSeconds"], let n = r.number(x, base + ".timedLockoutSeconds") {
                policy[keyPath: path].timedLockoutSeconds = n
            }
            if let x = thresholds["failuresForPermanentLockout"], let n = r.integer(x, base + ".failuresForPermanentLockout") {
                policy[keyPath: path].failuresForPermanentLockout = n
            }
        }
    }
}

extension ConfigReader {
    /// A Unix socket path: absolute and short enough for `sun_path` (107 bytes).
    mutating func socketPath(_ value: Any, _ path: String) -> String? {
        guard let text = string(value, path) else { return nil }
        guard text.hasPrefix("/") else {
            problem(path, "'\(text)' is not an absolute path; use e.g. /run/fpmod/\(path.hasPrefix("events") ? "events" : "control").sock")
            return nil
        }
        guard text.utf8.count <= 107 else {
            problem(path, "is \(text.utf8.count) bytes long; a Unix socket path can have at most 107")
            return nil
        }
        return text
    }
}
