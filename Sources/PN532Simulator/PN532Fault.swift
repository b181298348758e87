/// What the control socket can make the simulated PN532 do wrong.
public enum PN532Fault: String, Sendable, CaseIterable {
    /// Everything works.
    case none
    /// The card answers garbage: the responses that carry what a card said (InListPassiveTarget
    /// with a card found, InDataExchange, InCommunicateThru) arrive with scrambled data and a
    /// wrong DCS, as when a card at the edge of the field or a noisy line corrupts a frame.
    case garbage
    /// The card is found and selected, but what it answers to commands (InDataExchange) comes
    /// garbled: a card leaving the field in the middle of a DESFire dialog.
    case exchangeGarbage
    /// The PN532 stops answering once the card is selected: its commands to the card
    /// (InDataExchange) get neither ACK nor response, as when the chip hangs mid-dialog.
    case exchangeSilent
    /// The PN532 stops answering anything, not even ACK (a reset chip, a broken TX line).
    case silent
}
