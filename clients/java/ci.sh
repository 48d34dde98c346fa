#!/usr/bin/env bash
# The Java client in CI, offline, from Debian's packages (installed here when missing: a JDK,
# Maven, Maven's plugins, JUnit 5 and Gradle); Maven reads them through a local repository of
# links into Debian's /usr/share/maven-repo (Maven writes into its local repository, and
# Debian's is the system's).
#
#   bash clients/java/ci.sh jar   builds the jar (with its sources and Javadoc jars) into
#                                 clients/java/target/, without tests: the README's install route
#   bash clients/java/ci.sh       what CI runs: that, then every test against the jar (the tests
#                                 start the service with `npm start`, so `npm ci` comes first),
#                                 then every other install route the README shows, each in a
#                                 consumer project of its own. The last line is Surefire's summary.
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-all}"

packages=(maven junit5 libmaven-compiler-plugin-java libmaven-resources-plugin-java
  libmaven-jar-plugin-java libsurefire-java libmaven-install-plugin-java
  libmaven-source-plugin-java libmaven-javadoc-plugin-java)
[ "$mode" = all ] && packages+=(gradle)
missing=()
command -v javac >/dev/null || missing+=(default-jdk-headless)
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

repo="$PWD/target/offline-repo"
rm -rf "$repo" && mkdir -p "$repo" && cp -rs /usr/share/maven-repo/. "$repo/"
mvn=(mvn --batch-mode --offline -Dstyle.color=never -Dmaven.repo.local="$repo")
# The version the jars carry: the project's own, the first <version> after its artifactId.
version=$(sed -n '/<artifactId>export-client<\/artifactId>/,/<version>/s/.*<version>\(.*\)<\/version>.*/\1/p' pom.xml)
jar="$PWD/target/export-client-$version.jar"

"${mvn[@]}" -DskipTests package
echo "Built $jar"
[ "$mode" = jar ] && exit 0

status=0
"${mvn[@]}" verify 2>&1 | tee target/ci.log || status=$?
summary=$(grep -E 'Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$' target/ci.log | tail -n 1 || true)

# The README's routes into a plugin's build, each a consumer project that compiles a class using
# the client and runs it (no request is sent): Maven from a local repository the jar was put into
# with install:install-file, and Gradle from that repository (mavenLocal) and from the jar as a
# file. Offline, like everything above.
routes="$PWD/target/install-routes"
install_routes() {
  rm -rf "$routes" && mkdir -p "$routes"
  "${mvn[@]}" install:install-file -Dfile="$jar" -DpomFile=pom.xml
  consumer() {
    mkdir -p "$1/src/main/java/example" && cat >"$1/src/main/java/example/Consumer.java" <<'JAVA'
package example;

import dev.exportservice.client.ExportClient;
import java.net.URI;

public class Consumer {
  public static void main(String[] args) {
    ExportClient client = ExportClient.builder(URI.create("http://127.0.0.1:8787")).build();
    System.out.println("export-client linked: " + (client != null && ExportClient.isPublicationId("123456")));
  }
}
JAVA
  }
  run() { java -cp "$1" example.Consumer | grep -qx 'export-client linked: true'; }
  installed="$repo/dev/exportservice/export-client/$version/export-client-$version.jar"

  consumer "$routes/maven"
  cat >"$routes/maven/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>consumer</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>dev.exportservice</groupId>
      <artifactId>export-client</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>$(sed -n '/<artifactId>maven-compiler-plugin<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' pom.xml)</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>$(sed -n '/<artifactId>maven-resources-plugin<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' pom.xml)</version>
      </plugin>
    </plugins>
  </build>
</project>
XML
  (cd "$routes/maven" && "${mvn[@]}" compile)
  run "$routes/maven/target/classes:$installed"
  printf '\nInstall route: Maven, from the local repository (install:install-file): OK\n'

  for route in maven-local file; do
    consumer "$routes/gradle-$route"
    if [ "$route" = maven-local ]; then
      dependency="implementation 'dev.exportservice:export-client:$version'"
      repositories='repositories { mavenLocal() }'
      classpath="$installed"
    else
      mkdir -p "$routes/gradle-$route/libs" && cp "$jar" "$routes/gradle-$route/libs/"
      dependency="implementation files('libs/export-client-$version.jar')"
      repositories=''
      classpath="$routes/gradle-$route/libs/export-client-$version.jar"
    fi
    cat >"$routes/gradle-$route/build.gradle" <<GRADLE
apply plugin: 'java'
$repositories
dependencies {
  $dependency
}
GRADLE
    # Gradle's mavenLocal() honours maven.repo.local, like Maven.
    (cd "$routes/gradle-$route" && gradle --offline --quiet --no-daemon \
      --gradle-user-home "$routes/gradle-home" -Dmaven.repo.local="$repo" compileJava)
    run "$routes/gradle-$route/build/classes/java/main:$classpath"
    printf '\nInstall route: Gradle, from %s: OK\n' "$route"
  done
}
if [ "$status" -eq 0 ]; then
  set +e
  # errexit applies inside the subshell only when it is not part of a || or && list.
  (set -e; install_routes) >"$routes.log" 2>&1
  routes_status=$?
  set -e
  printf '\n'
  grep -ao 'Install route: .*' "$routes.log" || true
  if [ "$routes_status" -ne 0 ]; then
    cat "$routes.log"
    echo "An install route the README shows failed (above)."
    status=$routes_status
  fi
fi

# Maven leaves a colour reset without a newline at the very end; the summary gets its own line.
printf '\n%s\n' "${summary#*\] }"
exit "$status"
