/// Appends `text` between double quotes, with a backslash before `"` and `\`, `\n`, `\r` and `\t`
/// for those three, and `control(value)` for every other control character (below 0x20, and DEL).
///
/// The one quoting routine of the logfmt logger (`\x1b`) and the build-time embedder's Swift
/// string literals (`\u{1b}`): the two differ only in how a control character is spelled.
public func appendQuoted(_ text: String, to out: inout String, control: (UInt32) -> String) {
    out += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += control(scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
}
