import Foundation
import PackagePlugin

/// Embeds the package's `Templates/*.mustache` and `Demo/*.json` into the target as Swift
/// string constants, so a copied binary never looks for resource bundles.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        var inputs: [URL] = []
        for (folder, suffix) in [("Templates", "mustache"), ("Demo", "json")] {
            let directory = context.package.directoryURL.appending(path: folder)
            let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
            inputs += files.filter { $0.pathExtension == suffix && !$0.lastPathComponent.hasSuffix(".expected.json") }
        }
        inputs.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) templates and demo files",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
