import Foundation
import Testing

@testable import ModuleBundler

/// The build-time bundle of the page's script: modules in the order a browser runs them, imports
/// read from the earlier scopes, and a loud failure for every form it does not rewrite.
@Suite struct ModuleBundlerTests {
    private func files(_ sources: [String: String]) -> [ModuleBundler.File] {
        sources.map { ModuleBundler.File(path: $0.key, bytes: Array($0.value.utf8)) }
    }

    private func bundle(_ sources: [String: String], entry: String = "app.js") throws(BundleError) -> String {
        String(decoding: try ModuleBundler.bundle(entry: entry, files: files(sources)), as: UTF8.self)
    }

    private func failure(_ sources: [String: String], entry: String = "app.js") -> BundleError? {
        do {
            _ = try bundle(sources, entry: entry)
            return nil
        } catch {
            return error
        }
    }

    @Test func modulesRunOnceEachAfterWhatTheyImportWithImportsReadFromEarlierScopes() throws {
        let text = try bundle([
            "app.js": "import { b } from './b.js';\nimport { a, twice as double } from './lib/a.js';\nb(a, double);\n",
            "b.js": "import { a } from './lib/a.js';\nexport function b() { return a; }\n",
            "lib/a.js":
                "export const a = 1;\nexport async function twice(x) { return 2 * x; }\nexport class Unused {}\n",
        ])
        let a = try #require(text.firstRange(of: "\n// lib/a.js\n"))
        let b = try #require(text.firstRange(of: "\n// b.js\n"))
        let app = try #require(text.firstRange(of: "\n// app.js\n"))
        #expect(a.lowerBound < b.lowerBound && b.lowerBound < app.lowerBound)
        #expect(text.ranges(of: "\n// lib/a.js\n").count == 1, "a module imported twice runs once")
        #expect(text.contains("const __bundle_lib_a = (() => {\n// lib/a.js\nconst a = 1;\nasync function twice"))
        #expect(text.contains("return { a, twice, Unused };\n})();"))
        #expect(text.contains("const { a } = __bundle_lib_a;\nfunction b() { return a; }\nreturn { b };"))
        #expect(
            text.contains(
                "(() => {\n// app.js\nconst { b } = __bundle_b;\nconst { a, twice: double } = __bundle_lib_a;\nb(a, double);\n})();"
            ))
        #expect(!text.contains("import {") && !text.contains("export "))
    }

    /// `import './x.js';` runs the module first (once, however many import it) and binds nothing.
    @Test func aModuleImportedForItsEffectRunsFirstAndBindsNothing() throws {
        let text = try bundle([
            "app.js": "import './words.js';\nimport { f } from './f.js';\nf();\n",
            "f.js": "import \"./words.js\";\nexport function f() { return globalThis.words; }\n",
            "words.js": "globalThis.words = ['a'];\n",
        ])
        let words = try #require(text.firstRange(of: "\n// words.js\n"))
        let f = try #require(text.firstRange(of: "\n// f.js\n"))
        #expect(words.lowerBound < f.lowerBound)
        #expect(text.ranges(of: "\n// words.js\n").count == 1)
        #expect(text.contains("// f.js\n\nfunction f()"))
        #expect(text.contains("// app.js\n\nconst { f } = __bundle_f;\nf();"))
        #expect(!text.contains("import '") && !text.contains("import \""))
    }

    @Test func anImportOverSeveralLinesKeepsTheModulesLineNumbers() throws {
        let text = try bundle([
            "app.js": "import {\n  x,\n  y,\n} from './x.js';\nthrow new Error(x + y);\n",
            "x.js": "export const x = 1;\nexport const y = 2;\n",
        ])
        #expect(text.contains("// app.js\nconst { x, y } = __bundle_x;\n\n\n\nthrow new Error(x + y);\n"))
    }

    @Test func keywordsInCommentsStringsTemplatesAndRegularExpressionsAreText() throws {
        let source = """
            // export default nothing; import x from 'y'
            /** @param {import('./nowhere.js').T} t */
            const s = 'import { a } from "./b.js";' + "export let z";
            const t = `export ${s.length > 1 ? `import(${'x'})` : ''} import.meta`;
            const r = /export\\/import[/]/g.test(s) ? 4 / 2 : 1;
            const q = (1) / 2 / 3;
            export function f() { return { s, t, r, q }; }

            """
        let text = try bundle(["app.js": "import { f } from './m.js';\nf();\n", "m.js": source])
        #expect(text.contains("return { f };"))
    }

    @Test(arguments: [
        ("import x from './m.js';\n", 1), ("import * as m from './m.js';\n", 1), ("import './m.js'\n", 1),
        ("const m = await import('./m.js');\n", 1), ("const u = import.meta.url;\n", 1),
        ("export default 1;\n", 1), ("export { f };\nfunction f() {}\n", 1), ("export * from './m.js';\n", 1),
        ("const a = 1;\nexport let b = 2;\n", 2), ("export var c = 3;\n", 1), ("export const { d } = {};\n", 1),
        ("if (true) {\n  import { a } from './m.js';\n}\n", 2), ("import { a } from './m.js'\n", 1),
    ])
    func everyOtherFormOfImportOrExportFailsTheBuildWithItsLine(source: String, line: Int) {
        let error = failure(["app.js": source, "m.js": "export const a = 1;\n"])
        #expect(error?.kind == .unsupported, "\(source)")
        #expect(error?.file == "app.js" && error?.line == line, "\(String(describing: error))")
    }

    @Test func aMissingModuleExportOrACycleFailsTheBuild() {
        #expect(failure(["app.js": "import { a } from './gone.js';\n"])?.kind == .missingModule)
        #expect(failure(["app.js": "import { a } from 'package';\n"])?.kind == .missingModule)
        #expect(failure(["app.js": "import { a } from '../out.js';\n"])?.kind == .missingModule)
        let missing = failure(["app.js": "import { b } from './m.js';\n", "m.js": "export const a = 1;\n"])
        #expect(missing?.kind == .missingExport && missing?.line == 1)
        let cycle = failure([
            "app.js": "import { a } from './a.js';\n", "a.js": "import { b } from './b.js';\nexport const a = 1;\n",
            "b.js": "import { a } from './a.js';\nexport const b = 2;\n",
        ])
        #expect(cycle?.kind == .cycle)
        #expect(cycle?.detail.contains("a.js → b.js → a.js") == true)
    }

    @Test(arguments: ["const s = 'open;\n", "/* open\n", "const t = `open ${x\n", "const r = /open\n"])
    func aSourceThatDoesNotEndFailsTheBuild(source: String) {
        #expect(failure(["app.js": source])?.kind == .unreadable)
    }

    /// The page's own modules: every one app.js imports (directly or not) once, in a browser's order.
    @Test func thePagesModulesBundle() throws {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { $0.hasSuffix(".js") }
        let files = try names.map {
            ModuleBundler.File(path: $0, bytes: Array(try Data(contentsOf: web.appendingPathComponent($0))))
        }
        let text = String(decoding: try ModuleBundler.bundle(entry: "app.js", files: files), as: UTF8.self)
        let order = text.matches(of: /\n\/\/ ([a-z-]+\.js)\n/).map { String($0.output.1) }
        #expect(order.last == "app.js")
        #expect(Set(order).count == order.count)
        for (index, module) in order.enumerated() {
            let source = try #require(files.first { $0.path == module }).bytes
            for imported in String(decoding: source, as: UTF8.self).matches(of: /(?:from |import )'\.\/([a-z-]+\.js)';/)
            {
                let position = try #require(order.firstIndex(of: String(imported.output.1)))
                #expect(position < index, "\(module) runs after \(imported.output.1)")
            }
        }
        #expect(!order.contains("sw.js"))
    }
}
