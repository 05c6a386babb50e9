#!/bin/sh
set -e
for f in hello.sh scripts/*.sh; do
  sh -n "$f"
  echo "ok $f"
done
