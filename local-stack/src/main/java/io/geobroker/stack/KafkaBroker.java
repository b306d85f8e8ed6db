package io.geobroker.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/** The Kafka broker of one region: KRaft, broker and controller in one JVM, replication factor 1. */
record KafkaBroker(String name, String region, String address, Path dir) {

    Path logDir() {
        return dir.resolve("logs");
    }

    Path properties() {
        return dir.resolve("conf/server.properties");
    }

    String bootstrap() {
        return address + ":" + StackConfig.KAFKA_PORT;
    }

    /** Whether the log directory still has to be formatted (a fresh or wiped stack). */
    boolean needsFormat() {
        return !Files.exists(dir.resolve("data/meta.properties"));
    }

    void configure() {
        try {
            for (String sub : List.of("data", "logs", "conf")) {
                Files.createDirectories(dir.resolve(sub));
            }
            String listener = "PLAINTEXT://" + address + ":" + StackConfig.KAFKA_PORT
                    + ",CONTROLLER://" + address + ":" + StackConfig.CONTROLLER_PORT;
            Files.writeString(properties(), """
                    process.roles=broker,controller
                    node.id=1
                    listeners=%s
                    advertised.listeners=PLAINTEXT://%s:%d
                    listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
                    inter.broker.listener.name=PLAINTEXT
                    controller.listener.names=CONTROLLER
                    controller.quorum.bootstrap.servers=%s:%d
                    log.dirs=%s
                    num.partitions=1
                    num.network.threads=2
                    num.io.threads=2
                    offsets.topic.replication.factor=1
                    offsets.topic.num.partitions=4
                    transaction.state.log.replication.factor=1
                    transaction.state.log.min.isr=1
                    share.coordinator.state.topic.replication.factor=1
                    share.coordinator.state.topic.min.isr=1
                    group.initial.rebalance.delay.ms=0
                    # The 128 MB default of the cleaner's buffer would take half of a small heap.
                    log.cleaner.dedupe.buffer.size=2097152
                    auto.create.topics.enable=true
                    """.formatted(listener, address, StackConfig.KAFKA_PORT, address, StackConfig.CONTROLLER_PORT,
                    dir.resolve("data")), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("conf/log4j2.xml"), """
                    <Configuration status="WARN">
                      <Appenders>
                        <File name="file" fileName="%s"><PatternLayout pattern="[%%d] %%p %%m (%%c)%%n"/></File>
                      </Appenders>
                      <Loggers>
                        <Root level="WARN"><AppenderRef ref="file"/></Root>
                        <Logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                        <Logger name="kafka.server.BrokerServer" level="INFO"/>
                      </Loggers>
                    </Configuration>
                    """.formatted(logDir().resolve("server.log")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of " + name, e);
        }
    }

    /** A Kafka cluster id: 16 random bytes, URL-safe base64 without padding. */
    static String newClusterId() {
        UUID uuid = UUID.randomUUID();
        byte[] bytes = new byte[16];
        long hi = uuid.getMostSignificantBits();
        long lo = uuid.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (hi >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    List<String> formatCommand(Path java, List<Path> classPath, Path watchDir, long ownerPid) {
        return javaCommand(java, classPath, watchDir, ownerPid, 128, List.of(), "kafka.tools.StorageTool",
                List.of("format", "--cluster-id=" + newClusterId(), "--config", properties().toString(), "--standalone"));
    }

    List<String> serverCommand(Path java, List<Path> classPath, Path watchDir, long ownerPid, int heapMb,
                               List<String> jvmOptions) {
        return javaCommand(java, classPath, watchDir, ownerPid, heapMb, jvmOptions, "kafka.Kafka",
                List.of(properties().toString()));
    }

    private List<String> javaCommand(Path java, List<Path> classPath, Path watchDir, long ownerPid, int heapMb,
                                     List<String> jvmOptions, String main, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(java.toString(),
                "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", Jdk17.GC, "-XX:CICompilerCount=2",
                "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + dir.resolve("conf/log4j2.xml"),
                "-Dkafka.logs.dir=" + logDir(),
                "-Dgeobroker.stack.node=" + name,
                Jdk17.rmiHostname(address)));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-cp", watchDir + File.pathSeparator + CassandraNode.join(classPath),
                ParentWatch.class.getName(), Long.toString(ownerPid), main));
        cmd.addAll(args);
        return cmd;
    }
}
