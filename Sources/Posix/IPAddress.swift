import Glibc

/// Text IP addresses in their network byte form.
public enum IPAddress {
    /// `inet_pton(3)` for IPv4 then IPv6: the address's 4 or 16 bytes, or nil when `text` is
    /// neither (a host name). Certificates name addresses this way.
    public static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
