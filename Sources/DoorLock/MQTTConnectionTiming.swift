/// The bridge's keepalive and reconnect delays. The defaults are what docs/home-assistant.md promises (a
/// lost broker noticed within two keepalives, reconnects 1 s doubling to 60 s); tests shorten
/// them through `LockService.Options.mqttTiming` to see a cut network within seconds.
public struct MQTTConnectionTiming: Sendable, Equatable {
    public var keepAliveSeconds = 30
    public var reconnectInitial: Duration = .seconds(1)
    public var reconnectMaximum: Duration = .seconds(60)

    public init() {}
}
