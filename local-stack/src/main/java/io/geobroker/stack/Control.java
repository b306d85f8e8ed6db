package io.geobroker.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The owner process's control socket (a Unix domain socket in the work directory): another
 * process attached to the stack ({@link LocalStack#attach}) asks it to cut or restore a link,
 * or to stop. One line in, one line out; answers starting with {@code error: } are failures.
 */
final class Control implements AutoCloseable {

    private final Path socket;
    private final ServerSocketChannel server;
    private final Thread thread;

    private Control(Path socket, ServerSocketChannel server, Function<String, String> handler) {
        this.socket = socket;
        this.server = server;
        this.thread = new Thread(() -> serve(handler), "local-stack-control");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    static Control open(Path socket, Function<String, String> handler) {
        try {
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            return new Control(socket, server, handler);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the control socket " + socket, e);
        }
    }

    private void serve(Function<String, String> handler) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
                String request = read(client);
                String answer;
                try {
                    answer = handler.apply(request);
                } catch (RuntimeException e) {
                    answer = "error: " + e.getMessage();
                }
                client.write(StandardCharsets.UTF_8.encode(answer + "\n"));
            } catch (IOException e) {
                if (!server.isOpen()) {
                    return;
                }
            }
        }
    }

    /** Sends one command to the owner and returns its answer; failures become {@link StackException}. */
    static String send(Path socket, String command) {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(StandardCharsets.UTF_8.encode(command + "\n"));
            String answer = read(channel);
            if (answer.startsWith("error: ")) {
                throw new StackException(answer.substring("error: ".length()));
            }
            return answer;
        } catch (IOException e) {
            throw new StackException("the stack's owner process does not answer on " + socket + ": " + e.getMessage(), e);
        }
    }

    private static String read(SocketChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer);
            if (n < 0 || (buffer.position() > 0 && buffer.get(buffer.position() - 1) == '\n')) {
                break;
            }
        }
        buffer.flip();
        return StandardCharsets.UTF_8.decode(buffer).toString().strip();
    }

    @Override
    public void close() {
        try {
            server.close();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
