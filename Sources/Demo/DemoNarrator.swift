import DoorLock
import Foundation

/// Tells the demo's story through `output` (stdout for the CLI), a line at a time: scene
/// headings, what happens, and the service's events as a dashboard would show them. Unless
/// `fast`, it pauses briefly between scenes.
struct DemoNarrator {
    var pauseBetweenScenes: Duration
    private var sceneNumber = 0
    private let output: @Sendable (String) -> Void

    init(fast: Bool, output: @escaping @Sendable (String) -> Void) {
        pauseBetweenScenes = fast ? .zero : .milliseconds(700)
        self.output = output
    }

    mutating func scene(_ title: String) {
        if sceneNumber > 0, pauseBetweenScenes > .zero {
            Thread.sleep(forTimeInterval: Double(pauseBetweenScenes.components.attoseconds) / 1e18
                         + Double(pauseBetweenScenes.components.seconds))
        }
        sceneNumber += 1
        let heading = "Scene \(sceneNumber): \(title)"
        say("\n" + heading + "\n" + String(repeating: "─", count: heading.count))
    }

    /// One or more lines, without the final newline.
    func say(_ text: String) {
        output(text)
    }

    /// A result of the scene, marked so the eye (and a test) finds it.
    func result(_ text: String) {
        say("  ✔ " + text)
    }

    /// The events published since `index`, one line each, as `fpmod run` prints them; the silent
    /// ones are marked, since only the observer, the hook and the audit log ever see them.
    func showEvents(_ events: [LockEvent], from index: Int) -> Int {
        for event in events.dropFirst(index) {
            let fields = event.fields.keys.sorted().map { "\($0)=\(event.fields[$0] ?? "")" }.joined(separator: " ")
            let prefix = event.isPublic ? "    event: " : "    (silent, not on the events socket) "
            say(prefix + event.name + (fields.isEmpty ? "" : " " + fields))
        }
        return events.count
    }
}
