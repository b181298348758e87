// A bash completion script from the same ProgramSpec that prints --help: command and
// subcommand names, each command's options and the global ones, the choices of an option as
// its values, file names for PATH/FILE values and file arguments. Options that take a value
// are told apart from flags, so the word after one is completed (and skipped) as its value.

/// Renders the bash completion script of a program (`complete -F _fpmod fpmod`).
public struct BashCompletion: Sendable {
    public let program: ProgramSpec
    /// One branch of a generated `case`: its patterns and its command.
    private typealias Branch = (patterns: [String], body: String)

    public init(program: ProgramSpec) {
        self.program = program
    }

    /// The name of the completion function: `_fpmod`.
    public var functionName: String {
        "_" + String(program.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The script, ending with the `complete` line and a newline.
    public func render() -> String {
        let f = functionName
        var script = """
            # bash completion for \(program.name)(1), generated from the command specs that also print
            # --help. Do not edit. Install as /usr/share/bash-completion/completions/\(program.name).


            """
        script += function("\(f)_commands", comment: "The command words that can follow command path $1 ('' is the top level).",
                           body: caseStatement("\"$1\"", commandWordCases()))
        script += function("\(f)_options", comment: "The options of command path $1, the global ones included.",
                           body: ["local global=" + Self.quote(Self.optionWords(program.effectiveGlobalOptions))]
                               + caseStatement("\"$1\"", optionCases()))
        script += function("\(f)_takes_value", comment: "Succeeds when option $2 of command path $1 takes a value.",
                           body: caseStatement("\"$1:$2\"", takesValueCases()) + ["return 1"])
        script += function("\(f)_value", comment: "Completes the value of option $2 of command path $1 from $3.",
                           body: caseStatement("\"$1:$2\"", valueCases()))
        script += function("\(f)_argument", comment: "Completes positional argument $2 (0 is the first) of command path $1 from $3.",
                           body: caseStatement("\"$1\"", argumentCases()))
        script += helpers(f) + main(f)
        script += "complete -F \(f) \(Self.quote(program.name))\n"
        return script
    }

    // MARK: - The spec as case branches

    /// Every command with its path, groups and their subcommands included, in spec order.
    private var commandPaths: [(path: String, command: CommandSpec)] {
        var paths: [(path: String, command: CommandSpec)] = []
        func walk(_ command: CommandSpec, _ path: [String]) {
            paths.append((path.joined(separator: " "), command))
            for sub in command.subcommands { walk(sub, path + [sub.name]) }
        }
        for command in program.commands { walk(command, [command.name]) }
        return paths
    }

    private func commandWordCases() -> [Branch] {
        let top = program.commands.map(\.name)
        var cases: [Branch] = [
            (["''"], "echo " + Self.quote(Self.words(top + ["help"]))),
            ([Self.quote("help")], "echo " + Self.quote(Self.words(top))),
        ]
        for (path, command) in commandPaths where !command.subcommands.isEmpty {
            cases.append(([Self.quote(path), Self.quote("help " + path)], "echo " + Self.quote(Self.words(command.subcommands.map(\.name)))))
        }
        return cases
    }

    private func optionCases() -> [Branch] {
        var cases: [Branch] = []
        for (path, command) in commandPaths where !command.options.isEmpty {
            cases.append(([Self.quote(path)], "printf '%s\\n' \"$global\" " + Self.quote(Self.optionWords(command.options))))
        }
        cases.append((["*"], "printf '%s\\n' \"$global\""))
        return cases
    }

    private func takesValueCases() -> [Branch] {
        var cases: [Branch] = []
        let global = program.effectiveGlobalOptions.filter { $0.kind == .value }.flatMap(Self.spellings).map { "*:" + Self.quote($0) }
        if !global.isEmpty { cases.append((global, "return 0")) }
        let local = commandPaths.flatMap { path, command in
            command.options.filter { $0.kind == .value }.flatMap(Self.spellings).map { Self.quote(path + ":" + $0) }
        }
        if !local.isEmpty { cases.append((local, "return 0")) }
        return cases
    }

    private func valueCases() -> [Branch] {
        var cases: [Branch] = []
        func add(_ options: [OptionSpec], prefix: (String) -> String) {
            var files: [String] = []
            for option in options where option.kind == .value {
                let patterns = Self.spellings(option).map(prefix)
                if !option.choices.isEmpty {
                    cases.append((patterns, "\(functionName)_words \(Self.quote(Self.words(option.choices))) \"$3\""))
                } else if Self.isFileName(option.valueName) {
                    files += patterns
                }
            }
            if !files.isEmpty { cases.append((files, "\(functionName)_files \"$3\"")) }
        }
        for (path, command) in commandPaths {
            add(command.options) { Self.quote(path + ":" + $0) }
        }
        add(program.effectiveGlobalOptions) { "*:" + Self.quote($0) }
        return cases
    }

    private func argumentCases() -> [Branch] {
        var cases: [Branch] = []
        for (path, command) in commandPaths {
            let tests = command.arguments.enumerated().filter { Self.isFileName($0.element.name) }.map { index, argument in
                "[ \"$2\" \(argument.isRepeating ? "-ge" : "-eq") \(index) ]"
            }
            if tests.isEmpty { continue }
            cases.append(([Self.quote(path)], "if \(tests.joined(separator: " || ")); then \(functionName)_files \"$3\"; fi"))
        }
        return cases
    }

    // MARK: - Fixed parts

    private func helpers(_ f: String) -> String {
        #"""
        # COMPREPLY: the words of list $1 that start with $2.
        \#(f)_words() {
            mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
        }

        # COMPREPLY: the file names that start with $1.
        \#(f)_files() {
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$1")
        }

        # Succeeds when option word $2 of command path $1 takes the next word as its value: a long
        # option without '=', or a cluster of short options (-vp) ending in one that takes a value.
        \#(f)_consumes_next() {
            case "$2" in
                --*=*) return 1 ;;
                --*) \#(f)_takes_value "$1" "$2"; return ;;
            esac
            local letters="${2#-}" k
            for ((k = 0; k < ${#letters}; k++)); do
                if \#(f)_takes_value "$1" "-${letters:k:1}"; then
                    [ "$((k + 1))" -eq "${#letters}" ]
                    return
                fi
            done
            return 1
        }


        """#
    }

    private func main(_ f: String) -> String {
        #"""
        # Finds the command path in the words before the cursor, skipping options and the values of
        # those that take one, then completes a value, an option, a command word or an argument.
        \#(f)() {
            local cur="${COMP_WORDS[COMP_CWORD]}" path='' word i=1 positionals=0 ended=''
            COMPREPLY=()
            while [ "$i" -lt "$COMP_CWORD" ]; do
                word="${COMP_WORDS[i]}"
                i=$((i + 1))
                if [ -z "$ended" ]; then
                    case "$word" in
                        --) ended=1; continue ;;
                        -?*)
                            if \#(f)_consumes_next "$path" "$word"; then
                                # --name=value arrives as '--name' '=' 'value' when COMP_WORDBREAKS has '='.
                                if [ "$i" -lt "$COMP_CWORD" ] && [ "${COMP_WORDS[i]}" = '=' ]; then
                                    i=$((i + 1))
                                elif [ "$i" -eq "$COMP_CWORD" ] && [ "$cur" = '=' ]; then
                                    cur=''
                                fi
                                if [ "$i" -ge "$COMP_CWORD" ]; then
                                    case "$word" in --*) ;; *) word="-${word: -1}" ;; esac
                                    \#(f)_value "$path" "$word" "$cur"
                                    return 0
                                fi
                                i=$((i + 1))
                            fi
                            continue ;;
                    esac
                fi
                if [ "$positionals" -eq 0 ] && [[ " $(\#(f)_commands "$path") " == *" $word "* ]]; then
                    path="${path:+$path }$word"
                else
                    positionals=$((positionals + 1))
                fi
            done
            if [ -z "$ended" ]; then
                case "$cur" in
                    --*=*)
                        word="${cur%%=*}"
                        if \#(f)_takes_value "$path" "$word"; then
                            \#(f)_value "$path" "$word" "${cur#*=}"
                            COMPREPLY=("${COMPREPLY[@]/#/$word=}")
                        fi
                        return 0 ;;
                    -*)
                        \#(f)_words "$(\#(f)_options "$path")" "$cur"
                        return 0 ;;
                esac
            fi
            word="$(\#(f)_commands "$path")"
            if [ -n "$word" ] && [ "$positionals" -eq 0 ]; then
                \#(f)_words "$word" "$cur"
            else
                \#(f)_argument "$path" "$positionals" "$cur"
            fi
            return 0
        }


        """#
    }

    // MARK: - Shell text

    private func function(_ name: String, comment: String, body: [String]) -> String {
        "# \(comment)\n\(name)() {\n" + body.map { "    " + $0 + "\n" }.joined() + "}\n\n"
    }

    /// `case WORD in` with one branch per entry; no branch for an empty list (`:` keeps it valid).
    private func caseStatement(_ subject: String, _ cases: [Branch]) -> [String] {
        if cases.isEmpty { return [":"] }
        // In steps: Swift 6.0's type checker gives up on the one-expression form.
        var lines: [String] = ["case \(subject) in"]
        for branch in cases {
            let patterns: String = branch.patterns.joined(separator: "|")
            lines.append("    " + patterns + ") " + branch.body + " ;;")
        }
        lines.append("esac")
        return lines
    }

    /// `--port -p`: every spelling of each option.
    static func optionWords(_ options: [OptionSpec]) -> String {
        words(options.flatMap(spellings))
    }

    static func spellings(_ option: OptionSpec) -> [String] {
        ["--" + option.name] + (option.short.map { ["-" + String($0)] } ?? [])
    }

    /// A value named PATH, FILE, FILE.png or DIR is completed with file names.
    static func isFileName(_ name: String) -> Bool {
        let name = name.uppercased()
        return name.contains("PATH") || name.contains("FILE") || name.contains("DIR")
    }

    /// A word list for `compgen -W`, which expands its words again: characters other than
    /// letters, digits and `-_./:,=+@%` get a backslash.
    static func words(_ list: [String]) -> String {
        list.map { word in
            word.map { character in
                character.isASCII && (character.isLetter || character.isNumber || "-_./:,=+@%".contains(character))
                    ? String(character) : "\\" + String(character)
            }.joined()
        }.joined(separator: " ")
    }

    /// `'text'` for the shell, with `'` written as `'\''`.
    static func quote(_ text: String) -> String {
        "'" + text.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
    }
}
