import ArgumentParsing
import Diagnostics
import DoctorRun

/// `fpmod doctor`: the checklist of this machine, the port, the module and the store
/// (`Doctor.examine`), printed. Exit 0 without problems, 1 with any (warnings do not fail).
enum DoctorCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        var request = Doctor.Request(reader: try invocation.readerOptions(), port: invocation.parsed.string("port"))
        request.passwordGiven = invocation.parsed.string("password") != nil
        let checks = Doctor.examine(request)
        if invocation.json {
            JSONOutput.print(DoctorReport.json(checks))
        } else {
            StandardStreams.writeOutput(DoctorReport.text(checks) + "\n")
        }
        return DoctorChecks.exitStatus(checks) == 0 ? .ok : .denied
    }
}
