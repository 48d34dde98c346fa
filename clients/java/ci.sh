#!/usr/bin/env bash
# The Java client in CI, offline: builds the jar and runs every test against it (the tests start
# the service with `npm start`, so `npm ci` comes first). A JDK, Maven, Maven's plugins and
# JUnit 5 come from Debian, installed here when missing; Maven reads them through a local
# repository of links into Debian's /usr/share/maven-repo (Maven writes into its local
# repository, and Debian's is the system's). The last line is Surefire's summary.
set -euo pipefail
cd "$(dirname "$0")"

packages=(maven junit5 libmaven-compiler-plugin-java libmaven-resources-plugin-java
  libmaven-jar-plugin-java libsurefire-java libmaven-install-plugin-java
  libmaven-source-plugin-java libmaven-javadoc-plugin-java)
missing=()
command -v javac >/dev/null || missing+=(default-jdk-headless)
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

repo="$PWD/target/offline-repo"
rm -rf "$repo" && mkdir -p "$repo" && cp -rs /usr/share/maven-repo/. "$repo/"

status=0
mvn --batch-mode --offline -Dstyle.color=never -Dmaven.repo.local="$repo" verify 2>&1 | tee target/ci.log ||
  status=$?
summary=$(grep -E 'Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' target/ci.log | tail -n 1 || true)
# Maven leaves a colour reset without a newline at the very end; the summary gets its own line.
printf '\n%s\n' "${summary#*\] }"
exit "$status"
