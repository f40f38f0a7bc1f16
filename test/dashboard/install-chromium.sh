#!/bin/sh
# Installs Debian's chromium for the dashboard browser test when it is missing and we may (root).
# Without it the test skips with a message; nothing else depends on the browser.
set -e
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "install-chromium: /usr/bin/chromium is missing and this is not root; the dashboard test will skip" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here; the dashboard test will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }; then
  echo "install-chromium: apt-get could not install chromium; the dashboard test will skip" >&2
fi
exit 0
