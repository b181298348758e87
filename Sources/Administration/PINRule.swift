/// What a newly chosen PIN must be, wherever one is set (`fpmod pin`, `fpmod setup`, the
/// demo, any caller of `StoreAdministration.setPIN`). The service limits guesses, but the first
/// guesses are always the same few: one digit repeated, a run up or down the keypad, a short
/// block repeated, and a handful of favourites. Only setting a PIN is checked: a PIN chosen
/// before this rule still opens the door.
public enum PINRule {
    /// For prompts and refusals: what to choose.
    public static let summary = "4 to 12 digits without an obvious pattern: no run like 1234 or 2468, no repeat like 1111 or 1212"

    /// Why `pin` is refused, without repeating the PIN; nil when it is accepted.
    public static func problem(_ pin: String) -> String? {
        guard pin.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "a PIN has only digits (0 to 9)" }
        guard (4...12).contains(pin.count) else { return "the PIN has \(pin.count) digit(s); it needs 4 to 12" }
        let digits = pin.compactMap(\.wholeNumberValue)
        if Set(digits).count == 1 { return "a PIN of one repeated digit is among the first anybody tries" }
        if isEvenSteps(digits) {
            return "a PIN whose digits go up or down in even steps (like 1234, 4321, 7890 or 2468) is among the first anybody tries"
        }
        if isRepeatedBlock(digits) { return "a PIN that repeats a shorter block (like 1212 or 123123) is among the first anybody tries" }
        if favourites.contains(pin) { return "this PIN is one of the most common ones, among the first anybody tries" }
        return nil
    }

    /// Each digit the previous one plus the same step (`1234`, `2468`, `9630`), or a run up or
    /// down the keypad's digits with 0 after 9 (`7890`, `8901`, `1098`).
    static func isEvenSteps(_ digits: [Int]) -> Bool {
        let pairs = Array(zip(digits, digits.dropFirst()))
        let step = digits[1] - digits[0]
        if pairs.allSatisfy({ $1 - $0 == step }) { return true }
        return [1, 9].contains { wrapped in pairs.allSatisfy { ($1 - $0 + 10) % 10 == wrapped } }
    }

    /// The whole PIN is one block said two or more times (`1212`, `123123`, `4545`).
    static func isRepeatedBlock(_ digits: [Int]) -> Bool {
        (1...(digits.count / 2)).contains { length in
            digits.count % length == 0 && digits.indices.allSatisfy { digits[$0] == digits[$0 % length] }
        }
    }

    /// Common four-digit PINs no pattern above covers: years, the keypad's middle column, a
    /// word spelled on the keypad (LOVE), pairs.
    static let favourites: Set<String> = ["1004", "1122", "2000", "2001", "2580", "0852", "5683", "1998", "1999"]
}
