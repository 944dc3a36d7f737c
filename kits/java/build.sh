#!/bin/sh
# Build the kit with the plain JDK (17 or later): the classes go to out/, run with
#   java -cp out guinote.kit.Main
set -eu
cd "$(dirname "$0")"
rm -rf out
javac --release 17 -d out $(find src -name '*.java')
