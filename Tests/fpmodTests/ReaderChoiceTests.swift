@testable import fpmod
import ArgumentParsing
import ReaderSessions
import Testing

/// Which reader a command line names: the rules of `ReaderChoice`, on `Program.spec` itself,
/// through the options the CLI makes of it (`Invocation.readerOptions`).
struct ReaderChoiceTests {
    static func parsed(_ arguments: [String], environment: [String: String] = [:]) throws -> ParsedCommand {
        guard case .run(let parsed) = try ArgumentParser(program: Program.spec, environment: environment).parse(arguments) else {
            Issue.record("\(arguments) did not parse to a command")
            throw CancellationError()
        }
        return parsed
    }

    static func choice(_ arguments: [String], environment: [String: String] = [:], moduleCommand: Bool = false) throws -> ReaderChoice {
        try Invocation(parsed: try parsed(arguments, environment: environment), environment: environment)
            .readerChoice(moduleCommand: moduleCommand)
    }

    /// The usage failure `body` throws; records an issue otherwise.
    static func failure(_ body: () throws -> ReaderChoice) -> (message: String, exitCode: ExitCode)? {
        do {
            Issue.record("expected a refusal, got \(try body())")
        } catch {
            #expect(ErrorReport.exitCode(for: error) == .usage)
            return (ErrorReport.message(for: error), ErrorReport.exitCode(for: error))
        }
        return nil
    }

    @Test func eachOptionNamesItsReader() throws {
        #expect(try Self.choice(["identify"]) == .module)
        #expect(try Self.choice(["--port", "/dev/ttyUSB0", "identify"]) == .module)
        #expect(try Self.choice(["--sim", "identify"]) == .module)
        #expect(try Self.choice(["--sim", "--sim-profile", "r503", "identify"]) == .module)
        #expect(try Self.choice(["--sim", "--sim-profile", "fpc1020", "identify"]) == .simulatedSensor(imagesDirectory: nil))
        #expect(try Self.choice(["--sim", "--sim-profile", "fpc1020", "--sim-images", "/d", "identify"])
                == .simulatedSensor(imagesDirectory: "/d"))
        #expect(try Self.choice(["--spi", "/dev/spidev0.1", "identify"]) == .spiSensor(device: "/dev/spidev0.1"))
        #expect(try Self.choice(["--sensor-socket", "/run/s", "identify"]) == .socketSensor(path: "/run/s"))
    }

    @Test func theEnvironmentNamesReadersToo() throws {
        #expect(try Self.choice(["identify"], environment: ["FPMOD_SPI": "/dev/spidev0.0"]) == .spiSensor(device: "/dev/spidev0.0"))
        #expect(try Self.choice(["identify"], environment: ["FPMOD_SIM": "1", "FPMOD_SIM_PROFILE": "fpc1020", "FPMOD_SIM_IMAGES": "/i"])
                == .simulatedSensor(imagesDirectory: "/i"))
        // FPMOD_SIM_IMAGES left in the environment does not stop a module simulation; only the option does.
        #expect(try Self.choice(["--sim", "identify"], environment: ["FPMOD_SIM_IMAGES": "/i"]) == .module)
    }

    @Test func simWinsAsItAlwaysWonOverThePort() throws {
        #expect(try Self.choice(["--sim", "--spi", "/dev/spidev0.0", "identify"]) == .module)
        #expect(try Self.choice(["--sim", "--sim-profile", "fpc1020", "--port", "/dev/ttyUSB0", "identify"])
                == .simulatedSensor(imagesDirectory: nil))
    }

    @Test func twoReadersAreRefusedUnlessTheCommandNeedsAModule() throws {
        let both = Self.failure { try Self.choice(["--port", "/dev/ttyUSB0", "--spi", "/dev/spidev0.0", "identify"]) }
        #expect(both?.message.contains("--port (FPMOD_PORT) and --spi (FPMOD_SPI)") == true)
        let socket = Self.failure { try Self.choice(["--sensor-socket", "/s", "identify"], environment: ["FPMOD_SPI": "/dev/spidev0.0"]) }
        #expect(socket?.message.contains("--spi (FPMOD_SPI) and --sensor-socket") == true)
        // `sync` with FPMOD_SPI exported and --port given: the port is the module meant.
        #expect(try Self.choice(["--port", "/dev/ttyUSB0", "sync"], environment: ["FPMOD_SPI": "/dev/spidev0.0"], moduleCommand: true) == .module)
        #expect(try Self.choice(["sync"], environment: ["FPMOD_SPI": "/dev/spidev0.0"], moduleCommand: true) == .spiSensor(device: "/dev/spidev0.0"))
    }

    @Test func imagesForAModuleAreRefused() throws {
        let refused = Self.failure { try Self.choice(["--sim", "--sim-images", "/d", "identify"]) }
        #expect(refused?.message.contains("add --sim-profile fpc1020") == true)
    }

    @Test func theRefusalNamesTheCommandTheReaderAndTheWayOut() throws {
        let sync = ReaderChoice.spiSensor(device: "/dev/spidev0.0").moduleOnlyRefusal(command: ["sync"])
        #expect(ErrorReport.exitCode(for: sync) == .usage)
        #expect(sync.description.hasPrefix("`fpmod sync` works on a UART module only: it makes a module's flash library equal to the store"))
        #expect(sync.description.contains("the FPC1020 image sensor on /dev/spidev0.0"))
        #expect(sync.description.contains("leave out --spi"))
        let other = ReaderChoice.socketSensor(path: "/s").moduleOnlyRefusal(command: ["bench"])
        #expect(other.description.contains("a UART module's own firmware"))
        #expect(other.description.contains("leave out --sensor-socket"))
    }
}
