package io.geobroker.stack.wan;

import com.sun.jna.Memory;
import io.geobroker.stack.wan.WanEmulator.WanRegion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The emulated WAN's data path, run as its own small JVM by {@link WanEmulator}: one TUN device per
 * region namespace; every IPv4 packet a region sends towards another region is copied to that
 * region's TUN after the one-way delay, in order, unless the link between the two is cut.
 *
 * <p>Arguments: {@code <parent pid> <one-way delay µs> <control socket> <name,namespace,cidr>...}.
 * Prints {@code READY} once the TUNs are up and routed. Answers {@code cut A B}, {@code restore A
 * B} and {@code status} on the control socket (one line each way; the status counts the IP bytes
 * carried from each region to each other, cut links' packets not included). Exits, removing the namespaces,
 * veths and routes of its regions, when its parent dies or closes its stdin, or on SIGTERM.
 */
public final class WanForwarder {

    /** Per destination region: ~1.2 MB is in flight at 10 MB/s over 115 ms; room for 4× that. */
    private static final long LINE_CAPACITY_BYTES = 6L * 1024 * 1024;
    private static final int BUFFER_SIZE = 65536;
    private static final long PARENT_POLL_MILLIS = 500;

    /** Set first thing on exit: the TUNs and buffers then go away under the loops, which is fine. */
    private static volatile boolean stopping;

    private final WanPlan plan;
    private final LinkState links;
    private final DelayLine[] lines;
    private final Tun[] tuns;
    /** IP bytes taken for carrying, per (source, destination) region pair: {@code source * size + destination}. */
    private final AtomicLongArray carried;

    private WanForwarder(WanPlan plan, long delayNanos) {
        this.plan = plan;
        this.links = new LinkState(plan.size());
        this.lines = new DelayLine[plan.size()];
        this.tuns = new Tun[plan.size()];
        this.carried = new AtomicLongArray(plan.size() * plan.size());
        for (int i = 0; i < lines.length; i++) {
            lines[i] = new DelayLine(delayNanos, LINE_CAPACITY_BYTES);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: WanForwarder <parent pid> <one-way µs> <control socket> <name,ns,cidr>...");
            System.exit(2);
        }
        long parentPid = Long.parseLong(args[0]);
        long delayNanos = TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[1]));
        Path control = Path.of(args[2]);
        List<WanRegion> regions = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            String[] f = args[i].split(",", -1);
            if (f.length != 3) {
                System.err.println("bad region '" + args[i] + "', expected name,namespace,cidr");
                System.exit(2);
            }
            regions.add(new WanRegion(f[0], f[1], f[2]));
        }
        WanPlan plan = new WanPlan(regions);
        PrintStream out = System.out;
        System.setOut(System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            teardown(plan);
        }, "wan-teardown"));
        watchParent(parentPid, System.in);

        WanForwarder forwarder = new WanForwarder(plan, delayNanos);
        forwarder.openTuns();
        forwarder.startThreads();
        forwarder.serveControl(control);
        out.println("READY");
        out.flush();
        Thread.currentThread().join();
    }

    private static void teardown(WanPlan plan) {
        for (int i = 0; i < plan.size(); i++) {
            for (List<String> c : plan.teardownCommands(i)) {
                Command.run(c);
            }
        }
    }

    /** Exits when the parent closes our stdin (it died, however it died) or is gone. */
    private static void watchParent(long parentPid, InputStream stdin) {
        daemon("wan-stdin", () -> {
            try {
                while (stdin.read() >= 0) {
                    continue;
                }
            } catch (IOException e) {
                System.err.println("stdin: " + e.getMessage());
            }
            System.err.println("parent closed stdin, stopping");
            System.exit(0);
        });
        var parent = ProcessHandle.of(parentPid);
        daemon("wan-parent", () -> {
            while (parent.map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    TimeUnit.MILLISECONDS.sleep(PARENT_POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.err.println("parent " + parentPid + " is gone, stopping");
            System.exit(0);
        });
    }

    private void openTuns() throws IOException {
        for (int i = 0; i < plan.size(); i++) {
            tuns[i] = Tun.create(plan.tunName(i));
            for (List<String> c : plan.tunCommands(i)) {
                Command.require(c);
            }
        }
    }

    private void startThreads() {
        for (int i = 0; i < plan.size(); i++) {
            int region = i;
            daemon("wan-read-" + plan.regions().get(i).name(), () -> readLoop(region));
            daemon("wan-write-" + plan.regions().get(i).name(), () -> writeLoop(region));
        }
    }

    private void readLoop(int source) {
        try (Memory buffer = new Memory(BUFFER_SIZE)) {
            while (true) {
                int n = tuns[source].read(buffer);
                if (n < 20 || (buffer.getByte(0) & 0xf0) != 0x40) {
                    continue;
                }
                int destination = plan.regionOf(destinationAddress(buffer));
                if (destination < 0 || destination == source || links.isCut(source, destination)) {
                    continue;
                }
                byte[] packet = buffer.getByteArray(0, n);
                carried.addAndGet(source * plan.size() + destination, n);
                lines[destination].offer(source, packet, System.nanoTime());
            }
        } catch (IOException e) {
            if (!stopping) {
                System.err.println(e.getMessage());
                System.exit(1);
            }
        }
    }

    /** The IPv4 destination address (header bytes 16..19, network byte order) as an int. */
    private static int destinationAddress(Memory packet) {
        return (packet.getByte(16) & 0xff) << 24 | (packet.getByte(17) & 0xff) << 16
                | (packet.getByte(18) & 0xff) << 8 | (packet.getByte(19) & 0xff);
    }

    private void writeLoop(int destination) {
        try (Memory buffer = new Memory(BUFFER_SIZE)) {
            while (true) {
                DelayLine.Packet p = lines[destination].take();
                if (links.isCut(p.source(), destination)) {
                    continue;
                }
                buffer.write(0, p.data(), 0, p.data().length);
                try {
                    tuns[destination].write(buffer, p.data().length);
                } catch (IOException e) {
                    if (!stopping) {
                        System.err.println(e.getMessage());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serveControl(Path socket) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        daemon("wan-control", () -> {
            while (true) {
                try (SocketChannel client = server.accept()) {
                    var in = new BufferedReader(new InputStreamReader(Channels.newInputStream(client),
                            StandardCharsets.UTF_8));
                    String line = in.readLine();
                    String reply = line == null ? "error empty command" : handle(line.strip());
                    client.write(StandardCharsets.UTF_8.encode(reply + "\n"));
                } catch (IOException e) {
                    System.err.println("control: " + e.getMessage());
                }
            }
        });
    }

    private String handle(String command) {
        String[] w = command.split("\\s+");
        try {
            switch (w[0]) {
                case "cut", "restore" -> {
                    if (w.length != 3) {
                        return "error usage: " + w[0] + " <region> <region>";
                    }
                    int a = plan.indexOf(w[1]);
                    int b = plan.indexOf(w[2]);
                    if (a == b) {
                        return "error a region has no link to itself";
                    }
                    links.set(a, b, w[0].equals("cut"));
                    return "ok";
                }
                case "status" -> {
                    StringBuilder sb = new StringBuilder("ok");
                    for (int a = 0; a < plan.size(); a++) {
                        for (int b = a + 1; b < plan.size(); b++) {
                            sb.append(' ').append(plan.regions().get(a).name()).append('-')
                                    .append(plan.regions().get(b).name()).append('=')
                                    .append(links.isCut(a, b) ? "cut" : "up");
                        }
                    }
                    for (int d = 0; d < plan.size(); d++) {
                        sb.append(" dropped-to-").append(plan.regions().get(d).name()).append('=')
                                .append(lines[d].dropped());
                    }
                    for (int a = 0; a < plan.size(); a++) {
                        for (int b = 0; b < plan.size(); b++) {
                            if (a != b) {
                                sb.append(' ').append(WanEmulator.CARRIED).append(plan.regions().get(a).name())
                                        .append(WanEmulator.TO).append(plan.regions().get(b).name()).append('=')
                                        .append(carried.get(a * plan.size() + b));
                            }
                        }
                    }
                    return sb.toString();
                }
                default -> {
                    return "error unknown command '" + w[0] + "'";
                }
            }
        } catch (IllegalArgumentException e) {
            return "error " + e.getMessage();
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
