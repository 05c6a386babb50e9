#!/bin/sh
set -e
output=$(sh ./hello.sh Sluice)
test "$output" = "Hello, Sluice!"
echo "unit tests passed"
