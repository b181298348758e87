import ArgumentParsing

/// `fpmod completion bash`: the bash completion script, rendered from `Program.spec` (the same
/// declarations `--help` prints). Packages install it as
/// /usr/share/bash-completion/completions/fpmod; `source <(fpmod completion bash)` tries it.
enum CompletionCommand {
    static func bash(_ invocation: Invocation) throws -> ExitCode {
        StandardStreams.writeOutput(BashCompletion(program: Program.spec).render())
        return .ok
    }
}
