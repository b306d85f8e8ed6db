package io.geobroker.stack.wan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A small TCP server run inside a region's namespace by {@link WanEmulatorIT}. One command line per
 * connection: {@code echo} is answered with {@code echo}; {@code probe <host> <port> <timeout ms>}
 * connects from this namespace to another probe and answers {@code ok <round trip µs>} (one echo on
 * the established connection) or {@code fail <reason>}. Exits when its stdin closes.
 */
public final class WanProbe {

    private WanProbe() {}

    public static void main(String[] args) throws IOException {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    continue;
                }
            } catch (IOException ignored) {
                // stdin gone: the test is gone
            }
            System.exit(0);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
            System.out.println("LISTENING");
            System.out.flush();
            while (true) {
                try (Socket s = server.accept()) {
                    var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    var out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
                    String line = in.readLine();
                    if (line == null) {
                        continue;
                    }
                    String[] w = line.split(" ");
                    out.println(w[0].equals("probe") ? probe(w[1], Integer.parseInt(w[2]), Integer.parseInt(w[3])) : "echo");
                }
            }
        }
    }

    private static String probe(String host, int port, int timeoutMillis) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            s.setTcpNoDelay(true);
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            long start = System.nanoTime();
            s.getOutputStream().write("echo\n".getBytes(StandardCharsets.UTF_8));
            String reply = in.readLine();
            long micros = (System.nanoTime() - start) / 1000;
            return "echo".equals(reply) ? "ok " + micros : "fail reply " + reply;
        } catch (IOException e) {
            return "fail " + e;
        }
    }
}
