import Foundation

let status = InterludeCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
