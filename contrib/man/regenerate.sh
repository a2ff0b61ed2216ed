#!/bin/sh
# Regenerates faceoff.1 from the commands' help (swift-argument-parser's generate-manual
# plugin), then puts in the sections the help has no place for: ENVIRONMENT, FILES and
# Faceoff's own EXIT STATUS (0, 1, 2) in place of the generic one. Run from the repository.
set -eu
swift package plugin generate-manual --configuration debug
generated=.build/plugins/GenerateManual/outputs/faceoff/faceoff.1
# Everything before the generated EXIT STATUS, then ours.
sed '/^\.Sh "EXIT STATUS"/,$d' "$generated" > contrib/man/faceoff.1
cat contrib/man/sections.mdoc >> contrib/man/faceoff.1
