import Foundation
import PackagePlugin

/// Embeds every `Templates/*.mustache` file of the package into the target as Swift source.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default
            .contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) templates",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output])
        ]
    }
}
