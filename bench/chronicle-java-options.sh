# Sourced by bench/run.sh and bench/one-child.sh: the module access Chronicle Queue needs on Java 17+ in a benchmark
# JVM that opens a queue itself (the Kafka figures write one, the back-to-back figures read the children's back).
CHRONICLE_JAVA_OPTIONS=(
  --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  -Dchronicle.analytics.disable=true
)
