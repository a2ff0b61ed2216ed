import ArgumentParser
import FaceoffKit
import Foundation

// Global options may come before the subcommand (`faceoff --offline schedule`); ArgumentParser
// only accepts a subcommand's options after its name, so move them there.
let arguments = Faceoff.GlobalOptions.relocated(Array(CommandLine.arguments.dropFirst()))
if let status = Faceoff.StatusCommand.runFast(arguments) { exit(status) }
let status = await Faceoff.runMain(arguments)
exit(status)
