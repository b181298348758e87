import DoorLock
import HostReader

extension HostReader.Settings {
    /// The host matcher's settings from the config's `imageSensor` section (defaults without one).
    public init(_ config: LockConfig?) {
        if let section = config?.imageSensor {
            self.init(enrollCaptures: section.enrollCaptures, falseMatchRate: section.falseMatchRate)
        } else {
            self.init()
        }
    }
}
