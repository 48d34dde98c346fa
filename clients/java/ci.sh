#!/usr/bin/env bash
# The Java client in CI, offline. Every command it gives a reader it takes from README.md, where
# a `<!-- ci: NAME -->` line stands before each block it runs, so that the README and CI cannot
# drift apart:
#
#   bash clients/java/ci.sh jar   the block `jdk` alone: the jar built with a JDK alone (installs
#                                 nothing, needs no Maven); prints the jar's path
#   bash clients/java/ci.sh       what CI runs (`npm run test:java`): the Debian packages the
#                                 README names, when one is missing (blocks *-packages); the block
#                                 `jdk`; then `mvn verify` (the jar, its sources and Javadoc jars,
#                                 every test against the jar; the tests start the service with
#                                 `npm start`, so `npm ci` comes first); then the install routes,
#                                 blocks `maven`, `maven-offline` and `gradle`, each exactly as
#                                 printed, from a clean start, in a home of its own, and
#                                 `maven-offline` again in a home whose ~/.m2 builds against Maven
#                                 Central have filled. The last line is Surefire's summary.
set -euo pipefail
cd "$(dirname "$0")"
client="$PWD"
root="$(cd ../.. && pwd)"
mode="${1:-all}"

# The lines of the fenced block after `<!-- ci: $1 -->` in README.md (a blank line may stand between).
readme_block() {
  local lines
  # A block in a list is indented: the marker's indentation is taken off its lines.
  lines=$(awk -v marker="<!-- ci: $1 -->" '
    { line = $0; sub(/^ +/, "", line) }
    line == marker { seen++; state = 1; indent = length($0) - length(line); next }
    state == 1 && line ~ /^```/ { state = 2; next }
    state == 1 && line == "" { next }
    state == 1 { exit 1 }
    state == 2 && line ~ /^```/ { state = 0; next }
    state == 2 { print substr($0, indent + 1) }
    END { if (seen != 1) exit 1 }
  ' "$client/README.md") || { echo "README.md has no single block marked <!-- ci: $1 -->" >&2; return 1; }
  [ -n "$lines" ] || { echo "README.md's block $1 is empty" >&2; return 1; }
  printf '%s\n' "$lines"
}

# Runs a README block as printed from the repository's root, a line at a time; names each line
# and its time. Any environment the caller sets (a home of its own) applies to every line.
run_block() {
  local line start
  while IFS= read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    printf '$ %s\n' "$line"
    start=$SECONDS
    (cd "$root" && bash -euo pipefail -c "$line")
    printf '\n  (%d s)\n' "$((SECONDS - start))"
  done < <(readme_block "$1")
}

# The JDK route: it must print the jar's path, and the jar must be there.
jdk_route() {
  local printed
  printed=$(cd "$root" && bash -euo pipefail -c "$(readme_block jdk)")
  [ -f "$root/$printed" ] || { echo "BuildJar.java printed '$printed', which is not a file" >&2; return 1; }
  printf '%s\n' "$printed"
}

if [ "$mode" = jar ]; then
  jdk_route
  exit 0
fi

# The Debian packages of the README's *-packages blocks: a block is run as printed (as root) when
# one of its packages is missing, and not at all otherwise.
for block in tests-packages maven-offline-packages gradle-packages; do
  missing=0
  for package in $(readme_block "$block" | sed 's/.*--no-install-recommends//'); do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing=1
  done
  [ "$missing" -eq 0 ] || DEBIAN_FRONTEND=noninteractive run_block "$block"
done

jar="$root/$(jdk_route)"
echo "Built $jar with BuildJar.java"

# Maven reads Debian's repository (debian-settings.xml) into a local repository of CI's own.
mkdir -p target
# Compiled classes start afresh: a package moved or removed in the sources would otherwise stay
# in target/classes and reach the jar (JarTest holds the jar to the routes' jar). The Maven
# repository under target/ is kept.
rm -rf target/classes target/test-classes
mvn=(mvn --batch-mode -Dstyle.color=never -s "$client/debian-settings.xml"
  -Dmaven.repo.local="$client/target/ci-maven-repo")
status=0
"${mvn[@]}" verify 2>&1 | tee target/ci.log || status=$?
summary=$(grep -E 'Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' target/ci.log | tail -n 1 || true)

# The install routes, each from a clean start: no jar built before, no consumer built before,
# and a home of its own, so that nothing a route did not make itself can help it. Maven finds
# its settings and local repository under user.home (MAVEN_OPTS), Gradle under GRADLE_USER_HOME.
# There is no network here: for the `maven` block, the home's settings.xml stands Debian's
# repository in for Maven Central (the same file debian-settings.xml is); the block itself runs
# as printed.
homes="$client/target/route-homes"
clean_start() {
  rm -rf "$client/build" "$client/examples/target" "$client/examples/build" "$client/examples/.gradle" \
    "$homes/$1"
  mkdir -p "$homes/$1"
}
# A ~/.m2/repository as a developer's builds against Maven Central leave it: some artifacts, and
# a plugin the example consumer uses, maven-compiler-plugin 3.10.1, with the POM Maven Central
# ships (its dependencies at their own versions, here plexus-utils 3.4.1, which Debian's
# repository lacks; Debian's POM of it names version `debian`). The offline route must neither
# read nor write it.
used_m2() {
  local repo="$1" debian=/usr/share/maven-repo plugin=org/apache/maven/plugins/maven-compiler-plugin/3.10.1
  mkdir -p "$repo/$plugin"
  for artifact in commons-io/commons-io org/apache/commons/commons-lang3 org/codehaus/plexus/plexus-utils; do
    [ -d "$debian/$artifact" ] && mkdir -p "$repo/$artifact" && cp -r "$debian/$artifact/." "$repo/$artifact/"
  done
  cp "$debian/$plugin/maven-compiler-plugin-3.10.1.jar" "$repo/$plugin/"
  cat >"$repo/$plugin/maven-compiler-plugin-3.10.1.pom" <<'POM'
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.apache.maven.plugins</groupId>
  <artifactId>maven-compiler-plugin</artifactId>
  <version>3.10.1</version>
  <packaging>maven-plugin</packaging>
  <dependencies>
    <dependency>
      <groupId>org.codehaus.plexus</groupId>
      <artifactId>plexus-utils</artifactId>
      <version>3.4.1</version>
    </dependency>
  </dependencies>
</project>
POM
  printf 'maven-compiler-plugin-3.10.1.jar>central=\nmaven-compiler-plugin-3.10.1.pom>central=\n' \
    >"$repo/$plugin/_remote.repositories"
}
m2_listing() { (cd "$1" && find . -type f -exec md5sum {} + | sort); }
install_routes() {
  clean_start maven
  mkdir -p "$homes/maven/.m2" && cp "$client/debian-settings.xml" "$homes/maven/.m2/settings.xml"
  MAVEN_OPTS="-Duser.home=$homes/maven" run_block maven
  [ -f "$client/examples/target/print-model-1.0.jar" ]
  printf 'Install route: Maven, Maven Central (here: Debian'"'"'s repository in its place): OK\n'

  clean_start maven-offline
  MAVEN_OPTS="-Duser.home=$homes/maven-offline" run_block maven-offline
  [ -f "$client/examples/target/print-model-1.0.jar" ]
  printf 'Install route: Maven, offline with debian-settings.xml: OK\n'

  clean_start maven-offline-used
  used_m2 "$homes/maven-offline-used/.m2/repository"
  local before
  before=$(m2_listing "$homes/maven-offline-used/.m2/repository")
  MAVEN_OPTS="-Duser.home=$homes/maven-offline-used" run_block maven-offline
  [ -f "$client/examples/target/print-model-1.0.jar" ]
  [ "$(m2_listing "$homes/maven-offline-used/.m2/repository")" = "$before" ] ||
    { echo "The offline route changed the used ~/.m2/repository" >&2; return 1; }
  printf 'Install route: Maven, offline with debian-settings.xml, beside a used ~/.m2: OK\n'

  clean_start gradle
  echo 'org.gradle.daemon=false' >"$homes/gradle/gradle.properties"
  GRADLE_USER_HOME="$homes/gradle" run_block gradle
  [ -f "$client/examples/build/libs/print-model-1.0.jar" ]
  printf 'Install route: Gradle, the jar as a file: OK\n'
}
if [ "$status" -eq 0 ]; then
  set +e
  # errexit applies inside the subshell only when it is not part of a || or && list.
  (set -e; install_routes) >target/install-routes.log 2>&1
  routes_status=$?
  set -e
  printf '\n'
  grep -a '^\$ \|^  (\|Install route: ' target/install-routes.log || true
  if [ "$routes_status" -ne 0 ]; then
    cat target/install-routes.log
    echo "An install route the README shows failed (above)."
    status=$routes_status
  fi
fi

# Maven leaves a colour reset without a newline at the very end; the summary gets its own line.
printf '\n%s\n' "${summary#*\] }"
exit "$status"
