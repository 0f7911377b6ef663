import Foundation

let status = await InterludeCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
