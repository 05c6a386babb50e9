#!/bin/sh
# The program under test.
echo "Hello, ${1:-world}!"
