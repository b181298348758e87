import Foundation

let args = Array(CommandLine.arguments.dropFirst())
// Temporary dispatch until the real CLI lands.
if args.first == "sim" { exit(runSimCommand(Array(args.dropFirst()))) }
print("fpmod")
