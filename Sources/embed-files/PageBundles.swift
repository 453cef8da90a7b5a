import Foundation
import ModuleBundler

/// The page's scripts as bundles: each `<script type="module" src="x.js">` of `index.html` is
/// pointed at `x.bundle.js`, one module made of `x.js` and everything it imports
/// (`ModuleBundler`), added to the files. So the page's script is one request after the page,
/// whatever the depth of its imports; the modules stay among the files, by their own names, for
/// other users of them (tests, `recents-client.js` in other pages).
enum PageBundles {
    private static let script: NSRegularExpression = {
        guard let regex = try? NSRegularExpression(pattern: #"<script type="module" src="([^"]+\.js)">"#) else {
            fail("bad script pattern")
        }
        return regex
    }()

    /// `files` with the page's module scripts bundled (unchanged without an `index.html`).
    static func apply(_ files: [ListedFile]) -> [ListedFile] {
        guard let pageIndex = files.firstIndex(where: { $0.path == "index.html" }),
            var page = String(bytes: files[pageIndex].bytes, encoding: .utf8)
        else { return files }
        var result = files
        let matches = script.matches(in: page, range: NSRange(page.startIndex..., in: page))
        for match in matches.reversed() {
            guard let range = Range(match.range(at: 1), in: page) else { continue }
            let entry = String(page[range])
            let name = String(entry.dropLast(3)) + ".bundle.js"
            guard !files.contains(where: { $0.path == name }) else { fail("\(name) is a file already: rename it") }
            let bytes: [UInt8]
            do {
                bytes = try ModuleBundler.bundle(
                    entry: entry, files: files.map { ModuleBundler.File(path: $0.path, bytes: $0.bytes) })
            } catch {
                fail("cannot bundle \(entry) for index.html: \(error)")
            }
            result.append(ListedFile(path: name, bytes: bytes))
            page.replaceSubrange(range, with: name)
        }
        result[pageIndex].bytes = Array(page.utf8)
        return result
    }
}
