import ArgumentParsing

/// `--idle`: CPU of `fpmod run --sim --sim-gpio` while nobody touches the sensor.
enum IdleBench {
    struct Result {
        var seconds: Int
        var table: TextTable
        var conclusion: String?
        var json: JSONValue
    }

    static func run() -> Result {
        var table = TextTable(["service", "CPU s/min", "% of one core"])
        table.add(["fpmod run --sim --sim-gpio", "not measured", "–"])
        return Result(seconds: 0, table: table,
                      conclusion: "Not measured yet: `fpmod run` (the door service) is not in this build.",
                      json: .object(["measured": .bool(false), "reason": .string("fpmod run is not in this build")]))
    }
}
