import ArgumentParsing

/// Every command, option and argument of `fpmod`, in one place: help, errors and the
/// dispatcher all read this.
enum Program {
    static let version = "fpmod 0.1.0"
    /// The fleet hub's database, as every `fpmod hub` command takes it.
    /// A holiday's days and hours, as `holiday add` and `hub add-holiday` take them.
    static let holidayDays: [OptionSpec] = [
        .option("date", valueName: "YYYY-MM-DD", help: "One day."),
        .option("from", valueName: "YYYY-MM-DD", help: "The first day of a range."),
        .option("until", valueName: "YYYY-MM-DD", help: "The last day of a range."),
        .flag("yearly", help: "Every year on the same days."),
        .option("hours", valueName: "TEXT", help: "The hours that day, as a schedule's text (daily 10:00-14:00)."),
        .flag("closed", help: "Nobody with a schedule comes in that day."),
    ]
    /// A user's dates, as `fpmod user set` at a door and `fpmod hub user-validity` take them.
    static let userDates: [OptionSpec] = [
        .option("valid-from", valueName: "WHEN", help: "Not before then."),
        .flag("no-valid-from", help: "Valid from now on."),
        .option("valid-until", valueName: "WHEN", help: "Not after then (a day: through that day)."),
        .flag("no-valid-until", help: "Valid with no end."),
    ]
    /// The hub has no door clock: its commands read WHEN in UTC unless given the doors' zone.
    static let hubTimeZone = OptionSpec.option("time-zone", valueName: "ZONE", help: "The zone WHEN is read in, such as Europe/Berlin (default UTC).")
    static let hubDatabase = OptionSpec.option("database", valueName: "CONNINFO", help: "The hub's database as libpq takes it, e.g. 'host=/run/postgresql dbname=fpmod' or postgresql://hub.example/fpmod (default: FPMOD_HUB_DATABASE in /etc/default/fpmod-hub, the packaged hub's settings).", env: "FPMOD_HUB_DATABASE")

    static let spec = ProgramSpec(
        name: "fpmod",
        abstract: "Drive UART fingerprint modules (Grow R30x/R50x, ZFM-20, AS608 and clones), FPC1020 image sensors, and the door lock built on them.",
        discussion: """
            Without --port or --sim, fpmod uses FPMOD_PORT, else the port of the configuration file; --spi PATH \
            (FPMOD_SPI) uses an FPC1020A image sensor instead, matching on the host. \
            Try everything without hardware: fpmod --sim info, fpmod --sim --sim-profile fpc1020 enroll alice, or fpmod demo.
            """,
        version: version,
        globalOptions: [
            .option("port", short: "p", valueName: "PATH", help: "Serial device of the module (e.g. /dev/serial0, /dev/ttyUSB0).", env: "FPMOD_PORT"),
            .option("baud", valueName: "N", help: "Baud rate; probed when the module is silent at it.", default: "57600", env: "FPMOD_BAUD"),
            .option("address", valueName: "HEX", help: "Module address.", env: "FPMOD_ADDRESS"),
            .option("password", valueName: "HEX", help: "Module password (when not paired through the store).", env: "FPMOD_PASSWORD"),
            .option("family", valueName: "NAME", help: "Module family, when detection should be skipped.",
                    env: "FPMOD_FAMILY", choices: ["r30x", "as608", "r50x", "synochip"]),
            .option("spi", valueName: "PATH", help: "spidev node of an FPC1020A image sensor (e.g. /dev/spidev0.0): the reader instead of a module, its lines from the board preset.", env: "FPMOD_SPI"),
            .option("sensor-socket", valueName: "PATH", help: "The simulated image sensor that `fpmod sim --profile fpc1020 --link PATH` serves is the reader (its fingers placed on that one's --control socket).", env: "FPMOD_SENSOR_SOCKET"),
            .flag("sim", help: "Use a simulated reader in this process instead of a serial port or spidev. Its store is your personal one unless named (even as root: ~/.local/share/fpmod/fpmod.db), never one in /etc/fpmod or /var/lib/fpmod; a simulated module's flash is kept beside it.", env: "FPMOD_SIM"),
            .option("sim-profile", valueName: "NAME", help: "What --sim simulates: a module (r307, as608, r503) or the FPC1020 image sensor with matching on the host (fpc1020).", default: "r307",
                    env: "FPMOD_SIM_PROFILE", choices: ["r307", "as608", "r503", "fpc1020"]),
            .option("sim-finger", valueName: "NAME", help: "With --sim: the virtual finger touched for each capture.", env: "FPMOD_SIM_FINGER"),
            .option("sim-images", valueName: "DIR", help: "With --sim-profile fpc1020: captures of finger NAME come from DIR/NAME/*.png, a file per capture in name order (else fingers are generated from their names).", env: "FPMOD_SIM_IMAGES"),
            .option("sim-search-model", valueName: "MODEL", help: "With --sim: how Search walks the library (best-match compares every template, first-match stops at the first over the threshold).",
                    default: "best-match", env: "FPMOD_SIM_SEARCH_MODEL", choices: ["best-match", "first-match"]),
            .option("store", valueName: "PATH", help: "Template store database; its key is then PATH.key beside it unless --key names another.", env: "FPMOD_STORE"),
            .option("key", valueName: "PATH", help: "Key file of the template store (default: PATH.key beside a --store PATH or the config's store.database, else the config's store.key, else the installed or per-user default).", env: "FPMOD_STORE_KEY"),
            .option("config", short: "c", valueName: "FILE", help: "Configuration file (fpmod run, config check).", env: "FPMOD_CONFIG"),
            .flag("direct", help: "Open the module and store directly, even while `fpmod run` serves them (enroll, delete and list otherwise go through its control socket)."),
            .flag("json", help: "Print results as JSON."),
            .flag("verbose", short: "v", help: "Show protocol exchanges on stderr.", repeatable: true),
        ],
        commands: [
            CommandSpec(name: "info", abstract: "Show the module's parameters, capacity, templates used, family and product info (for an image sensor: its identity and what the store holds)."),
            CommandSpec(
                name: "capture", abstract: "Capture a fingerprint image and save it as PNG.",
                options: [.option("image", valueName: "FILE.png", help: "Where to write the image.", default: "fingerprint.png"),
                          .option("timeout", valueName: "DURATION", help: "How long to wait for a finger.", default: "10s")]),
            CommandSpec(
                name: "raw", abstract: "Send one instruction and print the reply (for debugging a module).",
                discussion: "INSTRUCTION is a name (GenImg, ReadSysPara, TempleteNum…) or a code (0x1d); parameters are hex bytes.",
                arguments: [.positional("instruction", help: "Instruction name or hex code."),
                            .positional("parameters", help: "Parameter bytes in hex.", optional: true, repeating: true)]),
            CommandSpec(
                name: "sim", abstract: "Serve a protocol-faithful simulated module on a pseudo-terminal, or a simulated image sensor.",
                discussion: "Prints the device path first, then serves until SIGINT/SIGTERM. The global --password, --address and --baud set the module's. Control it through --control with: place NAME [poor], lift, touch NAME [N], power-cycle, fault corrupt|drop|garbage|noise|silence|delay MS|none, status. With --profile fpc1020 it serves an FPC1020 image sensor instead: it prints its control socket's path (then --link's), takes place NAME, lift, touch NAME, auto-touch NAME|off, status on it, and serves the sensor to other processes on --link. With --profile pn532 it serves a PN532 NFC reader for libnfc (pn532_uart:DEVICE): it prints the device path, then the control socket's; cards are placed with JSON lines such as {\"place\":\"classic\",\"uid\":\"0A1B2C3D\"}, {\"remove\":true}, {\"fault\":\"garbage\"|\"silent\"|\"none\"}, {\"status\":true}; --card TYPE:UID places one from the start.",
                options: [
                    .option("profile", valueName: "NAME", help: "Module (or image sensor, or NFC reader) to simulate.", default: "r307", choices: ["r307", "as608", "r503", "fpc1020", "pn532"]),
                    .option("link", valueName: "PATH", help: "Symlink to the pseudo-terminal, made once the module has booted: wait for it, not the control socket (fpc1020: Unix socket serving the sensor)."),
                    .option("control", valueName: "PATH", help: "Unix socket for the control line protocol."),
                    .option("state", valueName: "FILE", help: "Keep the module's flash in this file across restarts."),
                    .option("timing", valueName: "MODE", help: "Reply timing: instant, wire (baud pacing) or datasheet (module times + pacing).", default: "instant", choices: ["instant", "wire", "datasheet"]),
                    .option("finger", valueName: "NAME", help: "Keep this finger on the sensor."),
                    .option("images", valueName: "DIR", help: "fpc1020: captures of finger NAME come from DIR/NAME/*.png (default: generated fingers)."),
                    .option("search-model", valueName: "MODEL", help: "How Search walks the library: best-match compares every template in the range and answers the best, first-match answers the first over the threshold in slot order (time grows with its position).",
                            default: "best-match", choices: ["best-match", "first-match"]),
                    .flag("glitch", help: "Send a 00 glitch byte before each boot byte 55."),
                    .option("card", valueName: "TYPE:UID", help: "pn532: a card on the reader from the start, e.g. classic:0A1B2C3D or desfire:04112233445566 (types classic, desfire, ultralight)."),
                ]),
            CommandSpec(
                name: "enroll", abstract: "Enroll a finger for a user (created if new).",
                discussion: "Guides through the captures, refuses a finger already enrolled, stores the template in the module and, encrypted, in the store: all of it or none of it. While `fpmod run` serves the module, this goes through its control socket (--direct to bypass).",
                arguments: [.positional("name", help: "User name.")],
                options: [
                    .option("finger", valueName: "LABEL", help: "Which finger (right-index, left-thumb…).", default: "right-index"),
                    .option("captures", valueName: "N", help: "Touches to take: a module merges 2–6 (default 2); an image sensor keeps 5–15 (default 8, or the config's imageSensor.enrollCaptures)."),
                    .option("display-name", valueName: "TEXT", help: "Full name shown in logs."),
                    .option("timeout", valueName: "DURATION", help: "How long to wait for each touch.", default: "15s"),
                    .flag("admin", help: "Make the user an administrator."),
                    .flag("duress", help: "A duress finger: it opens the door and raises a silent duress alarm."),
                ]),
            CommandSpec(
                name: "identify", abstract: "Match a finger against everyone enrolled (1:N).",
                options: [.option("timeout", valueName: "DURATION", help: "How long to wait for a finger.", default: "10s")]),
            CommandSpec(
                name: "verify", abstract: "Match a finger against one user's fingers (1:1).",
                arguments: [.positional("name", help: "User name.")],
                options: [.option("timeout", valueName: "DURATION", help: "How long to wait for a finger.", default: "10s")]),
            CommandSpec(name: "list", abstract: "List users and their fingers."),
            CommandSpec(
                name: "delete", abstract: "Delete a user, or one finger of a user.",
                discussion: "On a terminal you are asked to confirm unless --yes is given; scripts (stdin not a terminal) are not asked.",
                arguments: [.positional("name", help: "User name.")],
                options: [.option("finger", valueName: "LABEL", help: "Delete only this finger."),
                          .flag("yes", help: "Do not ask for confirmation.")]),
            CommandSpec(
                name: "rename", abstract: "Rename a user.",
                arguments: [.positional("name", help: "Current name."), .positional("new-name", help: "New name.")]),
            CommandSpec(
                name: "wipe", abstract: "Delete every user and empty the module's library (or an image sensor's host library).",
                options: [.flag("yes", help: "Confirm: this cannot be undone (make a backup first).")]),
            CommandSpec(
                name: "enable", abstract: "Allow fingerprint unlock for a user (needs a verification of that user or an admin).",
                arguments: [.positional("name", help: "User name.")],
                options: [.option("timeout", valueName: "DURATION", help: "How long to wait for the verifying finger.", default: "10s")]),
            CommandSpec(
                name: "disable", abstract: "Refuse fingerprint unlock for a user (needs a verification of that user or an admin).",
                arguments: [.positional("name", help: "User name.")],
                options: [.option("timeout", valueName: "DURATION", help: "How long to wait for the verifying finger.", default: "10s")]),
            CommandSpec(
                name: "pin", abstract: "Set or clear a user's PIN (the fallback when fingerprint unlock is locked out).",
                discussion: "A PIN is 4 to 12 digits without an obvious pattern: runs such as 1234, 4321 or 2468, repeats such as 1111 or 1212 and a few favourites such as 2580 are refused (a PIN set earlier still works). Typed on a terminal it is hidden and asked twice; piped, the first line of stdin is used.",
                arguments: [.positional("name", help: "User name.")],
                options: [.option("pin", valueName: "DIGITS", help: "The PIN (else typed, hidden, or read from stdin).", env: "FPMOD_PIN"),
                          .flag("clear", help: "Remove the PIN.")]),
            CommandSpec(
                name: "backup", abstract: "Write users, templates and cards to one passphrase-encrypted file.",
                discussion: "The passphrase needs at least 10 characters, at least 5 of them different. Typed on a terminal it is hidden and asked twice; piped, the first line of stdin is used.",
                arguments: [.positional("file", help: "Backup file to write.")],
                options: [.option("passphrase", valueName: "TEXT", help: "Passphrase (else typed, hidden, or read from stdin).", env: "FPMOD_BACKUP_PASSPHRASE"),
                          .flag("force", help: "Replace FILE if it exists (on a terminal you are asked instead).")]),
            CommandSpec(
                name: "restore", abstract: "Restore a backup into the store and the module (or an image sensor's store), checking every template.",
                arguments: [.positional("file", help: "Backup file to read.")],
                options: [.option("passphrase", valueName: "TEXT", help: "Passphrase (else typed, hidden, or read from stdin).", env: "FPMOD_BACKUP_PASSPHRASE"),
                          .flag("yes", help: "Replace the users already in the store.")]),
            CommandSpec(name: "sync", abstract: "Make the module's library equal to the store and report what changed."),
            CommandSpec(
                name: "layout", abstract: "Move the regulars' templates into one range at the start of the library, on the module itself.",
                discussion: "The service does this between touches on its own (config library.maxFlashWritesPerDay). Each move is LoadChar, Store into a free slot, then DeletChar of the old one; on a full library two slots swap through the module's two buffers (two Stores). An intent is in the store first: an interrupted move or swap is settled at the next open.",
                options: [.option("move", valueName: "FROM:TO", help: "Make this move instead of the planned ones (repeatable)."),
                          .option("swap", valueName: "A:B", help: "Swap these two occupied slots instead of the planned moves (repeatable)."),
                          .option("max-writes-per-day", valueName: "N", help: "Flash writes allowed today, moves of the service included.", default: "200"),
                          .flag("dry-run", help: "Only print the moves.")]),
            CommandSpec(
                name: "pair", abstract: "Give the module a random password and address, kept encrypted in the store.",
                options: [.flag("force", help: "Pair again although the store already knows a module.")]),
            CommandSpec(
                name: "unpair", abstract: "Set the paired module back to the factory password and address, and forget the pairing.",
                discussion: "Needs the store that paired the module (--store and --key): only it knows the module's password and address. Afterwards the module answers to password 00000000 at address FFFFFFFF, as new, and any store can pair it again. An interrupted unpair is finished at the next open. For a module paired by a store that is lost, see docs/recovery.md."),
            CommandSpec(
                name: "log", abstract: "Show the audit log, or with --who who was let in.",
                discussion: "WHEN is YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday or a weekday (the latest one, today included), on the door's clock (the config's access.timeZone, else the machine's). A day given to --until counts whole: --since tuesday --until tuesday is all of Tuesday. --who lists one line per person let in by a credential (fingerprint, PIN, card, or a remote code), oldest first. `fpmod log verify` checks the audit log's hash chain and names the first record that was changed, removed or inserted; with --head ID:HASH (the service writes 'audit chain head: ID:HASH' to its log) a cut-off tail shows too, and without it the newest head in the journal (journalctl -u fpmod) is used when there is one. Exit 0 when intact, 65 when not.",
                arguments: [.positional("action", help: "`verify` to check the audit log's hash chain.", optional: true)],
                options: [.option("limit", valueName: "N", help: "At most N entries (default 50; 10000 with --who)."),
                          .option("head", valueName: "ID:HASH", help: "With verify: a chain head seen earlier (from the journal), so truncation shows."),
                          .flag("who", help: "Who was let in, and how."),
                          .option("since", valueName: "WHEN", help: "From this day or time on."),
                          .option("until", valueName: "WHEN", help: "Up to the end of this day, or this time."),
                          .option("user", valueName: "NAME", help: "Only this user's entries."),
                          .option("door", valueName: "DOOR", help: "The door (the config's access.door); this store serves one."),
                          .flag("csv", help: "With --who: CSV for a spreadsheet (RFC 4180, a header row).")]),
            CommandSpec(
                name: "run", abstract: "Run the door/kiosk lock service.",
                options: [.option("chip", valueName: "NAME", help: "GPIO chip (overrides the board preset)."),
                          .flag("sim-gpio", help: "Use simulated GPIO lines (with --sim: no hardware at all).")]),
            CommandSpec(
                name: "status", abstract: "Show the running service's state: locked or not, lockouts, the module, events so far.",
                discussion: "Asks `fpmod run` through its control socket (the --config file's control.socket, else the default one). Exit status 69 when no service answers."),
            CommandSpec(
                name: "clear", abstract: "End the running service's lockouts and PIN-only mode without a PIN (root on this machine only).",
                discussion: "For an admin locked out of PIN entry. The service checks that the caller is root (SO_PEERCRED on its control socket); anyone else uses `clear ADMIN PIN` on the socket or an admin finger."),
            CommandSpec(
                name: "config", abstract: "Work with the configuration file.",
                subcommands: [CommandSpec(name: "check", abstract: "Validate a configuration file; every bad key is named with its path.",
                                          arguments: [.positional("file", help: "Configuration file (default: --config).", optional: true)])]),
            CommandSpec(
                name: "setup", abstract: "First-run guide: find the port, pair the module, enroll the first admin, set the PIN.",
                options: [.flag("defaults", help: "Accept every default without asking.")]),
            CommandSpec(
                name: "doctor", abstract: "Check the Pi's UART, console, groups, GPIO, SPI, the port, the module and the store; print a fix for each problem.",
                discussion: "Without --port, FPMOD_PORT or --sim the module itself is not contacted. With --spi (FPMOD_SPI) an SPI sensor is expected there, and missing SPI is a problem rather than a note. Exit status 0 when nothing is a problem (warnings allowed), 1 otherwise; --json prints an array of {id, title, verdict, seen, fix}."),
            CommandSpec(
                name: "demo", abstract: "The whole lock service on a simulated module and simulated GPIO, narrated.",
                options: [.flag("fast", help: "Skip the pauses between scenes.")]),
            CommandSpec(
                name: "bench", abstract: "Measure identify latency per stage against the wire and module limit.",
                discussion: """
                    Without --port, runs against a simulator in this process (datasheet timing, replies paced at \
                    --baud) with --templates templates written straight into its library. Each stage is set against \
                    its limit: wire time of the bytes (bytes × 10 / baud) plus the module's own time (the simulator's \
                    timing model; unknown on real hardware). The default run takes about 30 s; --sweep adds a few minutes. \
                    With --sim --sim-profile fpc1020: identify on the simulated image sensor through the host reader \
                    (capture, extract, 1:N search) over --templates templates, --touches touches of enrolled fingers and \
                    strangers, each stage set against its floor (the SPI wire time of a capture at --speed; the matcher \
                    alone on the same image for extract and search). \
                    `fpmod bench accuracy DIR`: the host matcher's accuracy on real impressions by the FVC protocol \
                    (DIR holds NNN_K.png images, or folders of them such as FVC2002's DB1_B … DB4_B), with NIST's NBIS \
                    (libfprint's mindtct + bozorth3) beside it; docs/accuracy.md says how to read it. \
                    `fpmod bench soak --duration 1h`: a busy door on `fpmod sim` and `fpmod run` with faults injected \
                    (damaged and lost replies, the serial device gone and back, the service killed, the store locked), \
                    counting wrong and missed decisions and the service's memory, descriptors, threads, WAL and audit rows \
                    (docs/soak.md); exits 1 when a decision was wrong, a decision has no audit row, or a bound was passed. \
                    `fpmod bench power-loss --iterations 1000`: every write path (enroll, delete, rename, layout, sync, \
                    restore, wipe, PIN, schedule, card, user edits) SIGKILLed at a random moment or a failpoint, then \
                    restarted and checked: integrity, no half-applied change, store and module agreeing, the audit chain \
                    (docs/power-loss.md); exits 1 on any problem.
                    """,
                arguments: [.positional("what", help: "`accuracy` for the matcher's accuracy on a folder of impressions; `soak` for a busy door with faults; `power-loss` for a power cut at every write.", optional: true),
                            .positional("folder", help: "With accuracy: the folder of NNN_K.png impressions (or of such folders).", optional: true)],
                options: [
                    .option("cycles", short: "n", valueName: "N", help: "Identify cycles (0 skips them).", default: "50"),
                    .option("templates", valueName: "N[,N…]", help: "Templates enrolled before measuring (simulator only); a list such as 100,500,1000 runs the workloads at each size.", default: "10"),
                    .option("timing", valueName: "MODE", help: "Simulator timing.", default: "datasheet", choices: ["instant", "datasheet"]),
                    .option("commands", valueName: "N", help: "Also time N round trips each of ReadSysPara, TempleteNum and GenImg.", default: "0"),
                    .option("transfers", valueName: "N", help: "Also time N template uploads (UpChar) against the wire limit.", default: "0"),
                    .flag("sweep", help: "Also sweep templates, baud rates and packet sizes, and measure transfers."),
                    .flag("idle", help: "Also measure the idle CPU of fpmod run --sim --sim-gpio."),
                    .option("duration", valueName: "DURATION", help: "With soak: how long the traffic runs (e.g. 2m, 1h).", default: "2m"),
                    .option("report-every", valueName: "DURATION", help: "With soak: time between report rows (default: a sixth of the run, 20 s to 10 min)."),
                    .option("seed", valueName: "N", help: "With soak or power-loss: the seed of the traffic and the faults (or of the cuts), to replay a run.", default: "27"),
                    .option("iterations", valueName: "N", help: "With power-loss: how many cuts (spread over the write paths).", default: "1000"),
                    .option("jobs", valueName: "N", help: "With power-loss: cuts run side by side.", default: "4"),
                    .flag("credentials", help: "Time a card (100 and 1,000 users) and a PIN from the control socket to the decision of fpmod run --sim --sim-gpio."),
                    .option("console-load", valueName: "RATE", help: "Time touch to relay of fpmod run --sim --sim-gpio with the web console on, idle and while curl asks its API RATE times a second (the issue's bound: 100)."),
                    .option("search-model", valueName: "MODEL", help: "Simulator Search model: best-match, first-match, or both (the workloads run under each).",
                            default: "best-match", choices: ["best-match", "first-match", "both"]),
                    .option("workload", valueName: "NAME", help: "Identify workloads: touches drawn uniform, regulars (80 % from 20 fingers), zipf (s = 1), strangers (a finger enrolled nowhere) or all; hot set first vs whole-range search.",
                            choices: ["uniform", "regulars", "zipf", "strangers", "all"]),
                    .option("touches", valueName: "N", help: "Measured touches per workload, or of the image-sensor bench (--sim-profile fpc1020).", default: "40"),
                    .option("speed", valueName: "HZ", help: "With --sim-profile fpc1020: the SPI clock the capture floor is computed at (the FPC1020A takes up to 8 MHz).", default: "4000000"),
                    .option("history", valueName: "N", help: "Touches of warm-up history the hot-set planner sees per workload.", default: "2000"),
                    .flag("layout", help: "Also measure the layout cost: bring a shuffled library into hot-set order, then follow a new set of regulars."),
                    .flag("throughput", help: "Also measure restore and sync of a full library against the wire limit at 57600 and 115200 baud."),
                    .flag("card-and-finger", help: "With --sim-profile fpc1020: also the same touches 1:1 against the card holder's fingers, as the card-and-finger verify mode compares them, beside 1:N."),
                    .flag("auto-identify", help: "Also compare the module's one-command AutoIdentify with the three-command cycle (use --sim-profile r503)."),
                    .option("sensor", valueName: "MODEL", help: "accuracy: compare what this sensor's window sees of each image (fpc1020: the 192 × 192 centre, the default).", choices: ["fpc1020"]),
                    .flag("full", help: "accuracy: compare whole images instead of the sensor's window."),
                    .flag("door", help: "accuracy: also enroll impressions 1–5 of each finger and identify the rest 1:N, with the other databases' fingers as strangers."),
                    .flag("no-baseline", help: "accuracy: skip NBIS (libfprint's bozorth3), which takes minutes per database."),
                    .option("det", valueName: "FILE.svg", help: "accuracy: write the DET curves (fpmod and NBIS) as SVG; one file per database, suffixed with its name, when there are several."),
                    .option("save-scores", valueName: "FILE.json", help: "accuracy: keep every pair's score, to compare a later run of a changed matcher with (--against)."),
                    .option("against", valueName: "FILE.json", help: "accuracy: compare with an earlier run's --save-scores pair by pair: each rate's change with its 95 % interval over the same fingers drawn again for both, and whether it shows a gain, a loss or neither."),
                    .option("check", valueName: "EER,FMR1000[,DOOR]", help: "accuracy: exit 1 when fpmod's EER or FMR1000 (percent, all-pairs impostors) is above these on any database (the CI's regression check); with --door, DOOR bounds the later touches missed (percent) at the product's thresholds, and any stranger let in fails."),
                ]),
            CommandSpec(
                name: "sensor", abstract: "Check and use an SPI image sensor (FPC1020A) wired to spidev.",
                discussion: "Where it is wired: --spi and the line options, else the board preset's spi section (the Pi found from its device tree, or --board), else /dev/spidev0.0. --no-gpio soft-resets the sensor and polls its interrupt register instead of waiting on the IRQ line.",
                subcommands: [
                    CommandSpec(name: "probe", abstract: "Reset the sensor, check its hardware id and write its setup: the wiring check.",
                                options: SensorOptions.common),
                    CommandSpec(name: "capture", abstract: "Wait for a finger, capture a 192×192 image, check that it holds a finger, and save it as PNG.",
                                options: SensorOptions.common + [
                                    .option("image", valueName: "FILE.png", help: "Where to write the image.", default: "fingerprint.png"),
                                    .option("timeout", valueName: "DURATION", help: "How long to wait for a finger.", default: "10s"),
                                ]),
                ]),
            CommandSpec(
                name: "keypad", abstract: "Bring up a keypad on the Linux input subsystem (USB keypad, matrix-keypad or gpio-keys overlay).",
                discussion: "DEVICE is a path (/dev/input/by-id/…, stable across replugging; /dev/input/eventN) or the name the device gives itself, as `fpmod keypad list` shows it. Reading needs root or the 'input' group; typing on a virtual keypad needs /dev/uinput (modprobe uinput).",
                subcommands: [
                    CommandSpec(name: "list", abstract: "List the input devices with digit keys: path and name."),
                    CommandSpec(name: "test", abstract: "Grab a keypad and show its keys as they arrive (an entry's first digit, then dots) and how each entry ends; no PIN is checked or shown.",
                                arguments: [.positional("device", help: "Path or device name.")],
                                options: [
                                    .option("duration", valueName: "DURATION", help: "How long to watch.", default: "60s"),
                                    .option("entries", valueName: "N", help: "Stop after N entries were submitted."),
                                    .option("wait", valueName: "DURATION", help: "Wait this long for the device to appear (hot-plug).", default: "0s"),
                                    .option("pause", valueName: "DURATION", help: "Drop a half-typed entry after this long without a key.", default: "5s"),
                                ]),
                    CommandSpec(name: "type", abstract: "Make a virtual keypad through uinput and type KEYS on it (digits, * and #): bring-up and tests without hardware.",
                                arguments: [.positional("keys", help: "What to type, e.g. '7391#'.")],
                                options: [
                                    .option("name", valueName: "NAME", help: "The virtual keypad's device name.", default: "fpmod virtual keypad"),
                                    .option("wait", valueName: "DURATION", help: "Time for readers to find and grab the new keypad before the first key.", default: "1s"),
                                    .option("interval", valueName: "DURATION", help: "Time between keys.", default: "100ms"),
                                ]),
                ]),
            CommandSpec(
                name: "wiegand", abstract: "Bring up a Wiegand reader or keypad on two GPIO inputs (D0, D1).",
                discussion: "Wire D0 and D1 through a level shifter (readers send 5 V) to two free GPIO inputs; the reader's ground to the Pi's. Lines are offsets or line names on the chip.",
                subcommands: [
                    CommandSpec(name: "listen", abstract: "Show each frame the reader sends: bit count, facility, card number and parity, keypad keys, or why a frame was rejected.",
                                options: [
                                    .option("chip", valueName: "NAME", help: "GPIO chip (name, number, path or label).", default: "gpiochip0"),
                                    .option("d0", valueName: "LINE", help: "The D0 line (offset or name)."),
                                    .option("d1", valueName: "LINE", help: "The D1 line (offset or name)."),
                                    .option("duration", valueName: "DURATION", help: "How long to listen.", default: "60s"),
                                    .option("frames", valueName: "N", help: "Stop after N frames."),
                                    .option("min-interval", valueName: "DURATION", help: "Pulses closer than this are noise.", default: "0.15ms"),
                                    .option("max-interval", valueName: "DURATION", help: "A longer pause inside a frame breaks it.", default: "20ms"),
                                    .option("gap", valueName: "DURATION", help: "A pause this long ends a frame.", default: "25ms"),
                                ]),
                    CommandSpec(name: "send", abstract: "Send one card frame to an access panel's Wiegand input (bring-up of Wiegand out).",
                                discussion: "The lines rest high and each bit pulls D0 (a 0) or D1 (a 1) low. Panels read 3.3 V only through a level shifter when their inputs are 5 V: check the panel's manual.",
                                arguments: [.positional("number", help: "The card: 26:FACILITY:NUMBER or 34:FACILITY:NUMBER.")],
                                options: [
                                    .option("chip", valueName: "NAME", help: "GPIO chip (name, number, path or label).", default: "gpiochip0"),
                                    .option("d0", valueName: "LINE", help: "The D0 line (offset or name)."),
                                    .option("d1", valueName: "LINE", help: "The D1 line (offset or name)."),
                                    .option("pulse", valueName: "DURATION", help: "How long each pulse holds its line low (0.02 to 2 ms).", default: "0.05ms"),
                                    .option("interval", valueName: "DURATION", help: "From one pulse's start to the next (0.2 to 25 ms).", default: "1ms"),
                                ]),
                ]),
            CommandSpec(
                name: "card", abstract: "Cards as credentials (a Wiegand reader's card numbers, NFC UIDs, DESFire cards keyed by fpmod), and an NFC reader's bring-up through libnfc.",
                discussion: "Whether a card opens alone or with a finger or PIN is the verify mode's (config policy.verifyMode, or a user's own: fpmod mode). The store keeps a keyed hash of each number, never the number. Every change is in the audit log (fpmod log). An NFC reader (PN532 on UART, I2C or SPI; PN533 or ACR122 on USB) is named by a libnfc connection string: pn532_uart:/dev/serial0[:115200], pn532_i2c:/dev/i2c-1, pn532_spi:/dev/spidev0.0[:HZ], pn53x_usb. A card's UID identifies it but does not prove it: UIDs can be read and cloned, so a door should not open on a UID alone (docs/nfc.md). Try it without hardware: fpmod sim --profile pn532 prints a device to read from.",
                subcommands: [
                    CommandSpec(name: "read", abstract: "Wait for an NFC card and print its type and UID (hex); for a DESFire card, whether it passes fpmod's AES authentication.",
                                discussion: "The authentication is tried when the store holds a DESFire master key (made by the first fpmod card enroll). A DESFire card that fails it exits 1.",
                                options: [
                                    .option("device", valueName: "CONNSTRING", help: "The reader, as a libnfc connection string.", default: "pn532_uart:/dev/serial0:115200", env: "FPMOD_NFC_DEVICE"),
                                    .option("timeout", valueName: "DURATION", help: "How long to wait for a card.", default: "10s"),
                                ]),
                    CommandSpec(name: "enroll", abstract: "Make the MIFARE DESFire EV1 card on the reader NAME's secure card: fpmod's application with an AES key for this card alone.",
                                discussion: "The card must have the factory PICC master key (DES, all zero); fpmod never formats a card. fpmod creates its application (AID F54D01) with one AES key, changes that key to one derived for this card from the store's DESFire master key (NXP AN10922, made at the first enroll and kept sealed in the store), and confirms it by authenticating. fpmod card read and the door (nfc mode desfire) then make the card prove that key: a copied UID does not pass. A card already carrying fpmod's application with this store's key is taken as it is; one keyed by another store is refused.",
                                arguments: [.positional("name", help: "User name.")],
                                options: [
                                    .option("label", valueName: "LABEL", help: "What to call the card (default: card, card-2, …)."),
                                    .option("device", valueName: "CONNSTRING", help: "The reader, as a libnfc connection string.", default: "pn532_uart:/dev/serial0:115200", env: "FPMOD_NFC_DEVICE"),
                                    .option("timeout", valueName: "DURATION", help: "How long to wait for a card.", default: "10s"),
                                ]),
                    CommandSpec(name: "add", abstract: "Give NAME a card: 26:FACILITY:NUMBER or 34:FACILITY:NUMBER (as fpmod wiegand listen shows it) or uid:HEX (an NFC card).",
                                arguments: [.positional("name", help: "User name."), .positional("number", help: "The card, e.g. 26:123:4567 or uid:04a1b2c3d4e5f6.")],
                                options: [.option("label", valueName: "LABEL", help: "What to call the card (default: card, card-2, …).")]),
                    CommandSpec(name: "list", abstract: "List the cards (of NAME only, when given).",
                                arguments: [.positional("name", help: "User name.", optional: true)]),
                    CommandSpec(name: "enable", abstract: "Switch a card back on.",
                                arguments: [.positional("name", help: "User name."), .positional("label", help: "The card's label.")]),
                    CommandSpec(name: "disable", abstract: "Switch a card off (a lost card, a leave) without deleting it.",
                                arguments: [.positional("name", help: "User name."), .positional("label", help: "The card's label.")]),
                    CommandSpec(name: "delete", abstract: "Delete a card.",
                                arguments: [.positional("name", help: "User name."), .positional("label", help: "The card's label.")]),
                    CommandSpec(name: "validity", abstract: "Set a card's own dates (a visitor's badge until Sunday); an option left out is no bound.",
                                discussion: "WHEN is YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the door's clock; --valid-until with a day means through that day. Outside its dates the card is refused (card-expired, card-not-yet-valid) whatever its owner's own rules say.",
                                arguments: [.positional("name", help: "User name."), .positional("label", help: "The card's label.")],
                                options: [.option("valid-from", valueName: "WHEN", help: "Not before then."),
                                          .option("valid-until", valueName: "WHEN", help: "Not after then (a day: through that day).")]),
                    CommandSpec(name: "panel", abstract: "Set the card fpmod sends an access panel for NAME after a grant (Wiegand out, config wiegandOut); none removes it.",
                                arguments: [.positional("name", help: "User name."), .positional("number", help: "26:FACILITY:NUMBER, 34:FACILITY:NUMBER, or none.")]),
                ]),
            CommandSpec(
                name: "mode", abstract: "Set how a user opens the door: finger, pin, card, finger-or-pin, card-and-finger, finger-and-pin or card-and-pin; door for the door's own.",
                discussion: "A combination takes its two factors in either order within policy.factorWindowSeconds (default 10 s). Without a user's own mode, the door's policy.verifyMode applies (default finger-or-pin).",
                arguments: [.positional("name", help: "User name."), .positional("mode", help: "The verify mode, or door.")]),
            CommandSpec(
                name: "schedule", abstract: "Named weekly windows of the door's clock, for fpmod user set --schedule.",
                discussion: "TEXT is windows separated by ';', each DAYS HH:MM-HH:MM: days mon … sun, ranges (mon-fri), lists (sat,sun), weekdays, weekends or daily. A window past midnight ends with +1 (fri 22:00-02:00+1). Times are on the door's clock (the config's access.timeZone, else the machine's zone). See docs/access.md.",
                subcommands: [
                    CommandSpec(name: "add", abstract: "Add a schedule (or change one with --replace).",
                                arguments: [.positional("name", help: "Schedule name, such as office-hours."),
                                            .positional("text", help: "The windows, e.g. 'mon-fri 07:00-19:00; sat 08:00-12:00'.")],
                                options: [.flag("replace", help: "Change the schedule of this name.")]),
                    CommandSpec(name: "list", abstract: "List the schedules and who has each."),
                    CommandSpec(name: "delete", abstract: "Delete a schedule nobody has.",
                                arguments: [.positional("name", help: "Schedule name.")]),
                ]),
            CommandSpec(
                name: "holiday", abstract: "Dated exceptions to the schedules: closed, or hours of their own.",
                discussion: "On a holiday its hours replace the schedule of every user who has one; users without a schedule are not affected. A yearly holiday repeats on the same days every year (a yearly February 29 in leap years only).",
                subcommands: [
                    CommandSpec(name: "add", abstract: "Add a holiday: one day (--date) or a range (--from, --until), --closed or --hours.",
                                arguments: [.positional("name", help: "Holiday name, such as christmas.")],
                                options: holidayDays),
                    CommandSpec(name: "list", abstract: "List the holidays."),
                    CommandSpec(name: "delete", abstract: "Delete a holiday.",
                                arguments: [.positional("name", help: "Holiday name.")]),
                ]),
            CommandSpec(
                name: "user", abstract: "A user's own access rules.",
                subcommands: [
                    CommandSpec(name: "set", abstract: "Set NAME's schedule, validity or number of uses.",
                                discussion: "WHEN is YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the door's clock; --valid-until with a day means through that day. Each grant by a credential uses one of --uses N. A user whose validity ended or whose uses ran out stays in the store (fpmod list marks them) until deleted.",
                                arguments: [.positional("name", help: "User name.")],
                                options: [
                                    .option("schedule", valueName: "SCHEDULE", help: "Only within this schedule (fpmod schedule list)."),
                                    .flag("no-schedule", help: "At any time of day."),
                                ] + userDates + [
                                    .option("uses", valueName: "N", help: "This many more grants, then no more."),
                                    .flag("unlimited-uses", help: "No limit on grants."),
                                ]),
                ]),
            CommandSpec(
                name: "door", abstract: "The running service's door.",
                subcommands: [
                    CommandSpec(name: "mode", abstract: "Show or set the door mode: normal, passage, lockdown or first-person-in.",
                                discussion: "passage holds the door unlocked while the config's access.passageSchedule is open (without one: until the mode changes); first-person-in does so only once the first authorised person came in inside that schedule; lockdown lets only admins in (the exit button still opens). Set through the service's control socket: any mode as root, only lockdown (or back to normal after passage) otherwise. Every change is audited with who asked.",
                                arguments: [.positional("mode", help: "The mode to set; without it, the mode is shown.", optional: true)]),
                ]),
            CommandSpec(
                name: "console", abstract: "The web console: run it, make the first admin's setup code, or show its address.",
                discussion: "Without an action the console runs alone against this door's store until stopped (the service runs it itself when the config's console.enabled is true). setup-code prints a one-time code (24 hours) with which the console's setup page makes the first admin account; there is no default password. url prints the console's addresses and its certificate's SHA-256 fingerprint, to compare with the one the browser shows. Pages, API and the kiosk lock screen: docs/console.md.",
                arguments: [.positional("action", help: "setup-code or url; none: run the console.", optional: true)]),
            CommandSpec(
                name: "hub", abstract: "The fleet hub: the PostgreSQL database many doors follow.",
                subcommands: [
                    CommandSpec(name: "migrate", abstract: "Bring the hub's database to this fpmod's schema; run again it changes nothing.",
                                discussion: "Each migration is one transaction, and the database records the ones applied (hub_migrations). A database that a newer fpmod migrated is refused untouched. Keep a password out of the command line: libpq reads it from ~/.pgpass or PGPASSWORD.",
                                options: [hubDatabase]),
                    CommandSpec(name: "add-door", abstract: "A one-time join code (24 hours) for a new door, shown once.",
                                discussion: "The hub keeps only the code's SHA-256. A door that joined already must be revoked before another machine may join under its name.",
                                arguments: [.positional("name", help: "The door's name: letters, digits, '-', '_', '.'.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "doors", abstract: "Every door: joined or waiting, revoked, last seen, the revision it pulled.",
                                options: [hubDatabase]),
                    CommandSpec(name: "revoke-door", abstract: "Refuse a door's certificate from its next request on (a stolen or retired door).",
                                arguments: [.positional("name", help: "The door's name, as fpmod hub doors lists it.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "add-user", abstract: "Add a user every door follows; their fingers are enrolled at any door.",
                                discussion: "The user reaches every door at its next sync (a waiting door at once). A finger enrolled for them at an image-sensor door goes to the hub sealed under the fleet's template key and from there to every image-sensor door (docs/fleet.md).",
                                arguments: [.positional("name", help: "The user's name: letters, digits, '.', '-', '_', '@'.")],
                                options: [
                                    hubDatabase,
                                    .option("display-name", valueName: "TEXT", help: "The name shown for them (default: the user name)."),
                                    .flag("admin", help: "An admin: let in during lockdown and when a silent hub lets only admins in."),
                                    .option("schedule", valueName: "NAME", help: "When they may come in: a schedule the hub has (fpmod hub add-schedule)."),
                                ]),
                    CommandSpec(name: "set-user", abstract: "Give a user of the hub a schedule every door follows, or take theirs away.",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it.")],
                                options: [
                                    hubDatabase,
                                    .option("schedule", valueName: "NAME", help: "When they may come in: a schedule the hub has (fpmod hub add-schedule)."),
                                    .flag("no-schedule", help: "No schedule of their own: any time."),
                                ]),
                    CommandSpec(name: "user-validity", abstract: "Set when a user of the hub may come in at every door, and how many times.",
                                discussion: "The options are fpmod user set's; what is not given stays as the hub has it. WHEN is YYYY-MM-DD (for --valid-until, through that day) or 'YYYY-MM-DD HH:MM'. The hub has no door clock: WHEN is read in UTC unless --time-zone names the doors' zone. --uses N gives each door N more grants for this user, counted at that door; a later change of the user at the hub gives them again.",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it.")],
                                options: [hubDatabase] + userDates + [
                                    .option("uses", valueName: "N", help: "This many more grants at each door, then no more."),
                                    .flag("unlimited-uses", help: "No limit on grants."),
                                    hubTimeZone,
                                ]),
                    CommandSpec(name: "users", abstract: "The hub's users and the fingers (by reader family) and cards it holds for them.",
                                options: [hubDatabase]),
                    CommandSpec(name: "remove-user", abstract: "Remove a user and their fingers and cards from every door at its next sync.",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "add-card", abstract: "Give a user of the hub a card every door follows: 26:FACILITY:NUMBER, 34:FACILITY:NUMBER or uid:HEX.",
                                discussion: "The hub keeps the number's keyed hash under the fleet's card key (derived from template.key in --dir, so run it as the hub's user), never the number; doors get the hash and match a card read there against it. A DESFire card is keyed to the door that enrolled it (fpmod card enroll there) and does not travel. Adding a label the user has replaces that card.",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it."),
                                            .positional("number", help: "The card, e.g. 26:123:4567 or uid:04a1b2c3d4e5f6.")],
                                options: [hubDatabase,
                                          .option("label", valueName: "LABEL", help: "What to call the card (default: card)."),
                                          .option("dir", valueName: "DIR", help: "The hub's own files, where fpmod hub serve keeps the fleet's keys (default /var/lib/fpmod-hub).")]),
                    CommandSpec(name: "remove-card", abstract: "Remove a user's card from every door at its next sync (a lost card).",
                                arguments: [.positional("name", help: "The user's name."), .positional("label", help: "The card's label.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "card-switch", abstract: "Switch a user's card off or on at every door (as fpmod card disable|enable at one).",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it."), .positional("label", help: "The card's label."),
                                            .positional("state", help: "on or off.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "card-validity", abstract: "Give a user's card its own dates at every door; an option left out is no bound on that side.",
                                discussion: "WHEN is as fpmod card validity takes it: YYYY-MM-DD (from its start; for --valid-until, through its end) or 'YYYY-MM-DD HH:MM'. The hub has no door clock: WHEN is read in UTC unless --time-zone names the doors' zone. Neither option: the card has no dates of its own.",
                                arguments: [.positional("name", help: "The user's name, as fpmod hub users lists it."), .positional("label", help: "The card's label.")],
                                options: [hubDatabase,
                                          .option("valid-from", valueName: "WHEN", help: "The first moment the card opens."),
                                          .option("valid-until", valueName: "WHEN", help: "When it stops opening (a day counts whole)."),
                                          hubTimeZone]),
                    CommandSpec(name: "add-schedule", abstract: "Add or replace a weekly schedule every door follows (fpmod hub add-user's --schedule names it).",
                                arguments: [.positional("name", help: "Schedule name, such as office."),
                                            .positional("text", help: "When it is open, as fpmod schedule add takes it: 'mon-fri 07:00-19:00; sat 09:00-12:00'.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "remove-schedule", abstract: "Remove a schedule no user of the hub has any more.",
                                arguments: [.positional("name", help: "The schedule's name.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "add-holiday", abstract: "Add or replace a holiday every door follows: one day (--date) or a range (--from, --until), --closed or --hours.",
                                arguments: [.positional("name", help: "Holiday name, such as christmas.")],
                                options: [hubDatabase] + holidayDays),
                    CommandSpec(name: "remove-holiday", abstract: "Remove a holiday from every door at its next sync.",
                                arguments: [.positional("name", help: "The holiday's name.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "door-mode", abstract: "Set a door's mode from the hub: normal, passage, lockdown or first-person-in.",
                                discussion: "The door's service puts it into effect within seconds of its next sync (a waiting door hears of it as it commits), audited as set by the fleet hub; a change made at the door afterwards wins until the hub sets the mode again. Other doors get only the change's revision.",
                                arguments: [.positional("door", help: "The door's name, as fpmod hub doors lists it."),
                                            .positional("mode", help: "normal, passage, lockdown or first-person-in.")],
                                options: [hubDatabase]),
                    CommandSpec(name: "console-setup-code", abstract: "A one-time code (24 hours) with which the fleet console makes its first admin account.",
                                discussion: "The fleet console (https://HUB:8443/fleet, served by fpmod hub serve) has no default password: its first admin is made with this code, typed on its setup page. Its accounts, sessions and audit log are kept in console.db in --dir, so run this as the user fpmod hub serve runs as. Refused once the console has an account.",
                                options: [.option("dir", valueName: "DIR", help: "The hub's own files (default /var/lib/fpmod-hub).")]),
                    CommandSpec(name: "serve", abstract: "The hub's HTTPS API for doors (mutual TLS) and the fleet's web console, until stopped.",
                                discussion: "On its first start it makes the fleet's certificate authority in --dir (authority.key, mode 0600: whoever holds it can make a door) and a server certificate for --names; doors pin the authority when they join. Routes: POST /v1/join, GET /v1/changes, POST /v1/events, GET /v1/template-key, POST /v1/fingers, POST /v1/cards, /v1/cards/update, /v1/cards/remove (docs/fleet.md). As a service: fpmod-hub.service, settings in /etc/default/fpmod-hub. The fleet's template key (template.key, 0600) is made there too: fingers travel and rest sealed under it. The same port serves the fleet console at /fleet (doors, users and where their fingers work, schedules and holidays, join codes, revoking a stolen door, the audit log; its first admin comes from fpmod hub console-setup-code).",
                                options: [
                                    hubDatabase,
                                    .option("listen", valueName: "ADDRESS:PORT", help: "Where to listen (default 0.0.0.0:8443)."),
                                    .option("names", valueName: "NAMES", help: "The host names and addresses doors reach the hub by, comma-separated (default localhost,127.0.0.1)."),
                                    .option("dir", valueName: "DIR", help: "The hub's own files: the fleet's authority and the server certificate (default /var/lib/fpmod-hub)."),
                                    .option("connections", valueName: "N", help: "PostgreSQL connections the hub's requests share, 1 to 64 (default 4; each door's request holds one for its queries, never during a long poll's wait)."),
                                ]),
                ]),
            CommandSpec(
                name: "join", abstract: "Join this door to a fleet: follow the hub at URL, with the code fpmod hub add-door printed.",
                discussion: "The door makes its own key pair (kept beside the store, mode 0600; it never leaves the door) and fetches the fleet's authority from the hub, which it trusts only once its SHA-256 fingerprint is the one fpmod hub serve printed: you are asked to compare it, or give it with --authority-sha256. The code and the certificate request then go over TLS checked against that authority, and the certificate that comes back is tried once before the door counts as joined. A join that fails leaves no fleet file behind, only the key pair it sent a request for (fleet-join-…-key.pem, 0600) unless the hub refused the join: run the same join again after a lost answer (a network that dropped, a join killed) and it asks with that key, and the hub gives the certificate it issued for it again, until the door first used it. The hub's address, the door's name and the fingerprint are in fleet.json beside the store; the join is in the audit log. docs/fleet.md.",
                arguments: [.positional("url", help: "The hub: https://HOST:PORT (default port 8443)."),
                            .positional("code", help: "The one-time code fpmod hub add-door printed (case and dashes do not matter).")],
                options: [.option("authority-sha256", valueName: "HEX", help: "The fleet authority's SHA-256 fingerprint as fpmod hub serve printed it; without it you are asked to compare.")]),
            CommandSpec(
                name: "fleet", abstract: "This door's link to its fleet hub (after fpmod join).",
                discussion: "The service follows the hub by itself (a long poll: a change reaches the door as it commits at the hub) and uploads the door's audit records; these commands look, or sync now. docs/fleet.md.",
                subcommands: [
                    CommandSpec(name: "sync", abstract: "Pull and apply the hub's changes now, and upload the door's new fingers and audit records.",
                                discussion: "Each page of changes is applied whole or not at all; a change the door cannot apply stops the sync with nothing of its page applied. Fingers are taken for the reader the command line, the config or the store names (--sim-profile fpc1020, --spi): give it as for any reader command. Exit 1 when the hub refuses the door (revoked), 69 when it cannot be reached.",
                                options: [
                                    .flag("from-start", help: "Pull the whole log again, not only what is new (a door that now has an image sensor takes the fingers it left); applying it again changes nothing else."),
                                ]),
                    CommandSpec(name: "status", abstract: "Which hub, as which door, at which revision, and the audit records the hub has."),
                ]),
            CommandSpec(
                name: "access", abstract: "Who may enter when: ask the rules the door applies.",
                discussion: "Schedules, holidays and each user's validity and uses are in the store (fpmod schedule, fpmod holiday, fpmod user set); they are read on the door's clock, in the config's access.timeZone (else the machine's own zone).",
                subcommands: [
                    CommandSpec(name: "explain", abstract: "Would NAME be let in at a time, and which rule decides.",
                                discussion: "The same rules the service applies before every grant. Exit status 0 when NAME would be let in, 1 when not. The person at the door only ever sees \"not now\"; the reason is here, in the audit log and in the events.",
                                arguments: [.positional("name", help: "User name.")],
                                options: [
                                    .option("at", valueName: "'YYYY-MM-DD HH:MM'", help: "The moment, on the door's clock (default: now)."),
                                    .option("door", valueName: "DOOR", help: "The door (the config's access.door); this store serves one."),
                                ]),
                ]),
            CommandSpec(
                name: "manpage", abstract: "Print this program's manual page, fpmod(1), in troff (for packaging: fpmod manpage > fpmod.1).",
                discussion: "Rendered from the same declarations as --help. Without --date the footer date is the UTC day of SOURCE_DATE_EPOCH when that is set, else empty, so the page is reproducible.",
                options: [.option("date", valueName: "YYYY-MM-DD", help: "Date for the page footer.")]),
            CommandSpec(
                name: "completion", abstract: "Print a shell completion script.",
                subcommands: [CommandSpec(
                    name: "bash", abstract: "Print the bash completion script (rendered from the same declarations as --help).",
                    discussion: "Install it as /usr/share/bash-completion/completions/fpmod, or try it with: source <(fpmod completion bash)")]),
        ])
}
