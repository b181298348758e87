import Glibc

extension StorePaths {
    /// The installed service's directories (its config and key, its store): a trial such as
    /// `--sim` makes nothing there.
    public static let productionDirectories = ["/etc/fpmod", "/var/lib/fpmod"]

    /// True when `path` is a production directory or inside one. Compared after making it
    /// absolute and resolving `.`, `..` and the symlinks of the part that exists, so
    /// `/var/lib/other/../fpmod/x` or a link into /var/lib/fpmod counts as well.
    public static func isInProductionDirectory(_ path: String) -> Bool {
        let resolved = resolvedPath(path)
        return productionDirectories.contains { resolved == $0 || resolved.hasPrefix($0 + "/") }
    }

    /// `path` made absolute, its longest existing prefix through realpath(3) and the rest
    /// normalised by hand (it does not exist yet, so it holds no symlink).
    private static func resolvedPath(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            let cwd = getcwd(nil, 0)
            defer { free(cwd) }
            absolute = (cwd.map { String(cString: $0) } ?? "/") + "/" + path
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        var existing = parts.count
        while existing > 0 {
            if let real = realpath("/" + parts[..<existing].joined(separator: "/"), nil) {
                defer { free(real) }
                let head = String(cString: real)
                let rest = parts[existing...].joined(separator: "/")
                return rest.isEmpty ? head : (head == "/" ? "" : head) + "/" + rest
            }
            existing -= 1
        }
        return "/" + parts.joined(separator: "/")
    }
}
